import CBLAS

/// Row-major single-precision matrix product on OpenBLAS.
public enum GEMM {
    /// Below this many multiply-adds a GEMM is not split across workers: the dispatch costs
    /// more than it saves. Task-local rather than global, so a test can force splitting on
    /// small shapes for its own scope (`GEMM.$splitThreshold.withValue(1) { … }`).
    @TaskLocal static var splitThreshold = 1 << 21

    /// `C = alpha · op(A) · op(B) + beta · C`, all row-major; op(A) is m×k, op(B) k×n.
    ///
    /// Threading: OpenBLAS itself is single-threaded (see `Parallel`). Called outside a
    /// parallel region with `Parallel.threadCount > 1` and a large problem, the product is
    /// split into contiguous column blocks of C (row blocks when n is narrow), one per
    /// worker; inside a parallel region it runs on the calling worker.
    public static func multiply(
        transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int, alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        beta: Float = 0, c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        Parallel.configureBLAS
        if m <= 0 || n <= 0 { return }
        if k <= 0 {
            scaleRows(c, rows: m, columns: n, ldc: ldc, by: beta)
            return
        }
        let blocks = m * n * k >= splitThreshold ? Parallel.workerCount(for: max(m, n) / 16) : 1
        if blocks <= 1 {
            sgemm(transposeA, transposeB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
            return
        }
        if n >= m {
            let panels = (n + 15) / 16
            Parallel.forEachChunk(panels) { range, _ in
                let j0 = range.lowerBound * 16, j1 = min(n, range.upperBound * 16)
                let bBlock = transposeB ? b + j0 * ldb : b + j0
                sgemm(transposeA, transposeB, m, j1 - j0, k, alpha, a, lda, bBlock, ldb, beta, c + j0, ldc)
            }
        } else {
            let panels = (m + 15) / 16
            Parallel.forEachChunk(panels) { range, _ in
                let i0 = range.lowerBound * 16, i1 = min(m, range.upperBound * 16)
                let aBlock = transposeA ? a + i0 : a + i0 * lda
                sgemm(transposeA, transposeB, i1 - i0, n, k, alpha, aBlock, lda, b, ldb, beta, c + i0 * ldc, ldc)
            }
        }
    }

    @inline(__always)
    static func sgemm(
        _ transposeA: Bool, _ transposeB: Bool, _ m: Int, _ n: Int, _ k: Int, _ alpha: Float,
        _ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>, _ ldb: Int,
        _ beta: Float, _ c: UnsafeMutablePointer<Float>, _ ldc: Int
    ) {
        cblas_sgemm(
            CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc))
    }

    private static func scaleRows(_ c: UnsafeMutablePointer<Float>, rows: Int, columns: Int, ldc: Int, by beta: Float) {
        for i in 0..<rows {
            let row = c + i * ldc
            if beta == 0 {
                row.update(repeating: 0, count: columns)
            } else {
                for j in 0..<columns { row[j] *= beta }
            }
        }
    }
}
