/// Materialises a transpose: output dimension i is input dimension `permutation[i]`.
public enum Permute {
    public static func apply(_ input: UnsafePointer<Float>, shape: [Int], permutation: [Int], output: UnsafeMutablePointer<Float>) {
        let rank = shape.count
        if rank >= 2, permutation == Array(0..<(rank - 2)) + [rank - 1, rank - 2] {
            transposeLastTwo(input, batch: shape.dropLast(2).reduce(1, *), rows: shape[rank - 2], columns: shape[rank - 1], output: output)
            return
        }
        var inStrides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { inStrides[d] = inStrides[d + 1] * shape[d + 1] }
        let outShape = permutation.map { shape[$0] }
        let stridesInOutOrder = permutation.map { inStrides[$0] }
        let total = shape.reduce(1, *)
        guard total > 0 else { return }
        let inner = outShape[rank - 1], innerStride = stridesInOutOrder[rank - 1]
        var index = [Int](repeating: 0, count: rank)
        var inOffset = 0
        var o = 0
        while o < total {
            var p = input + inOffset
            for i in 0..<inner { output[o + i] = p.pointee; p += innerStride }
            o += inner
            var d = rank - 2
            while d >= 0 {
                index[d] += 1
                inOffset += stridesInOutOrder[d]
                if index[d] < outShape[d] { break }
                inOffset -= stridesInOutOrder[d] * outShape[d]
                index[d] = 0
                d -= 1
            }
        }
    }

    /// [batch, rows, columns] → [batch, columns, rows] in 16×16 tiles, so every read and write
    /// stays within a few cache lines (the general loop above reads a whole column per output
    /// row: the detector's head flatten, [N, 77, 2688] → [N, 2688, 77], took 4 ms a batch that
    /// way). Tiles are split across workers; each output float is written once, so any worker
    /// count gives the same result.
    public static func transposeLastTwo(_ input: UnsafePointer<Float>, batch: Int, rows: Int, columns: Int, output: UnsafeMutablePointer<Float>) {
        let tile = 16
        let rowTiles = (rows + tile - 1) / tile, columnTiles = (columns + tile - 1) / tile
        let tiles = batch * rowTiles * columnTiles
        let workers = batch * rows * columns >= 1 << 16 ? Parallel.workerCount(for: tiles) : 1
        Parallel.forEachChunk(tiles, workers: workers) { range, _ in
            for t in range {
                let n = t / (rowTiles * columnTiles), r0 = (t / columnTiles) % rowTiles * tile, c0 = t % columnTiles * tile
                let source = input + n * rows * columns, destination = output + n * rows * columns
                for c in c0..<min(columns, c0 + tile) {
                    let o = destination + c * rows
                    for r in r0..<min(rows, r0 + tile) { o[r] = source[r * columns + c] }
                }
            }
        }
    }

    public static func inverse(_ permutation: [Int]) -> [Int] {
        var inverse = [Int](repeating: 0, count: permutation.count)
        for (i, p) in permutation.enumerated() { inverse[p] = i }
        return inverse
    }
}
