/// Broadcasting as strided loops: shapes are aligned right, size-1 dimensions get stride 0,
/// and adjacent dimensions that are contiguous for every operand are merged so the inner
/// loop is as long as possible (e.g. [N,C,H,W] + [1,C,1,1] becomes an outer loop over N·C
/// with an inner loop of H·W against one scalar).
public struct StridedLayout {
    /// Merged extents, outermost first.
    public let extents: [Int]
    /// Per operand, strides in elements for each merged extent (0 = broadcast).
    public let strides: [[Int]]

    public init(outputShape: [Int], operandShapes: [[Int]]) {
        let rank = outputShape.count
        var operandStrides: [[Int]] = operandShapes.map { shape in
            let padded = [Int](repeating: 1, count: rank - shape.count) + shape
            var strides = [Int](repeating: 0, count: rank)
            var running = 1
            for d in stride(from: rank - 1, through: 0, by: -1) {
                strides[d] = padded[d] == 1 && outputShape[d] != 1 ? 0 : running
                running *= padded[d]
            }
            return strides
        }
        // The output is contiguous too: keep it as operand 0 of the merge test.
        var outStrides = [Int](repeating: 0, count: rank)
        var running = 1
        for d in stride(from: rank - 1, through: 0, by: -1) { outStrides[d] = running; running *= outputShape[d] }
        operandStrides.insert(outStrides, at: 0)

        var mergedExtents: [Int] = []
        var mergedStrides: [[Int]] = Array(repeating: [], count: operandStrides.count)
        for d in 0..<rank where outputShape[d] != 1 {
            if let last = mergedExtents.last,
               operandStrides.indices.allSatisfy({ mergedStrides[$0].last! == operandStrides[$0][d] * outputShape[d] }) {
                mergedExtents[mergedExtents.count - 1] = last * outputShape[d]
                for o in operandStrides.indices { mergedStrides[o][mergedStrides[o].count - 1] = operandStrides[o][d] }
            } else {
                mergedExtents.append(outputShape[d])
                for o in operandStrides.indices { mergedStrides[o].append(operandStrides[o][d]) }
            }
        }
        if mergedExtents.isEmpty {
            mergedExtents = [1]
            for o in operandStrides.indices { mergedStrides[o] = [0] }
        }
        extents = mergedExtents
        strides = Array(mergedStrides.dropFirst())
    }

    /// Calls `body(offsets, innerCount, innerStrides)` for every inner run, outer dims in order.
    /// `offsets[i]` is operand i's element offset where the run starts.
    @inline(__always)
    public func forEachInnerRun(_ body: ([Int], Int, [Int]) -> Void) {
        let rank = extents.count
        let inner = extents[rank - 1]
        let innerStrides = strides.map { $0[rank - 1] }
        let outerCount = extents.dropLast().reduce(1, *)
        var index = [Int](repeating: 0, count: max(rank - 1, 0))
        var offsets = [Int](repeating: 0, count: strides.count)
        for _ in 0..<outerCount {
            body(offsets, inner, innerStrides)
            // Odometer increment over the outer dimensions.
            var d = rank - 2
            while d >= 0 {
                index[d] += 1
                for o in strides.indices { offsets[o] += strides[o][d] }
                if index[d] < extents[d] { break }
                for o in strides.indices { offsets[o] -= strides[o][d] * extents[d] }
                index[d] = 0
                d -= 1
            }
        }
    }
}

/// The broadcast result shape of two shapes (NumPy rules), or nil when they are incompatible.
public func broadcastShape(_ a: [Int], _ b: [Int]) -> [Int]? {
    let rank = max(a.count, b.count)
    let pa = [Int](repeating: 1, count: rank - a.count) + a
    let pb = [Int](repeating: 1, count: rank - b.count) + b
    var out = [Int](repeating: 1, count: rank)
    for d in 0..<rank {
        if pa[d] == pb[d] || pb[d] == 1 { out[d] = pa[d] } else if pa[d] == 1 { out[d] = pb[d] } else { return nil }
    }
    return out
}
