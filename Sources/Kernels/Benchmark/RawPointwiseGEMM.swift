import CBLAS

/// Plain OpenBLAS ways to compute a batch of 1×1 convolutions (one [out × in]·[in × H·W]
/// product per NCHW image): the baselines the engine's GEMM path is measured against. A fair
/// comparison takes the fastest of them on the same cores.
public enum RawPointwiseGEMM: String, CaseIterable, Sendable {
    /// One `cblas_sgemm` per image, in order, with OpenBLAS's own threads inside each product.
    case openBLASThreads = "OpenBLAS threads"
    /// Images split across `Parallel` workers, one single-threaded `cblas_sgemm` per image:
    /// the engine's own split at batch ≥ threads, without the engine around it.
    case imagesAcrossWorkers = "images split"

    /// Sets OpenBLAS's thread count for this variant. Not part of the work: call it before
    /// timing, and `restoreEngineThreading()` after.
    public func prepare(threads: Int) {
        Parallel.configureBLAS  // the same kernels the engine runs
        openblas_set_num_threads(Int32(self == .openBLASThreads ? max(1, threads) : 1))
    }

    /// Back to the engine's rule: OpenBLAS single-threaded (see `Parallel`).
    public static func restoreEngineThreading() { openblas_set_num_threads(1) }

    /// `output[n] = weight · input[n]` for every image n; `threads` workers for `imagesAcrossWorkers`.
    public func run(batch: Int, inChannels: Int, outChannels: Int, spatial: Int, threads: Int,
                    weight: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        func image(_ n: Int) {
            cblas_sgemm(
                CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(outChannels), blasint(spatial), blasint(inChannels), 1,
                weight, blasint(inChannels), input + n * inChannels * spatial, blasint(spatial), 0,
                output + n * outChannels * spatial, blasint(spatial))
        }
        switch self {
        case .openBLASThreads:
            for n in 0..<batch { image(n) }
        case .imagesAcrossWorkers:
            Parallel.forEachChunk(batch, workers: threads) { images, _ in images.forEach(image) }
        }
    }
}
