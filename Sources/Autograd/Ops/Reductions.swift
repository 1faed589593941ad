import Kernels
import Tensor

extension Variable {
    /// Sum over `axes` (all axes when nil). With `keepingDimensions`, reduced axes stay as 1.
    public func sum(axes: [Int]? = nil, keepingDimensions: Bool = false) throws -> Variable {
        let (kept, final) = try reducedShapes(axes: axes, keepingDimensions: keepingDimensions, op: "sum")
        let input = value
        let out = tape.timed(.sum) { () -> Tensor in
            var out = Tensor(uninitialized: kept)
            out.withUnsafeMutableBufferPointer { Reduce.sum(input.pointer, shape: input.shape, into: $0.baseAddress!, outputShape: kept) }
            return Tensor(shape: final, storage: out.storage)
        }
        let inputShape = input.shape
        return tape.record(.sum, inputs: [self], output: out) { g, _ in
            [try Tensor.elementwise(.add, Tensor(zeros: inputShape), g.reshaped(kept), opName: "sum backward")]
        }
    }

    public func mean(axes: [Int]? = nil, keepingDimensions: Bool = false) throws -> Variable {
        let (kept, _) = try reducedShapes(axes: axes, keepingDimensions: keepingDimensions, op: "mean")
        let reducedCount = Tensor.elementCount(shape) / max(Tensor.elementCount(kept), 1)
        return try sum(axes: axes, keepingDimensions: keepingDimensions).scaled(by: 1 / Float(max(reducedCount, 1)))
    }

    private func reducedShapes(axes: [Int]?, keepingDimensions: Bool, op: String) throws -> (kept: [Int], final: [Int]) {
        let axes = try (axes ?? Array(0..<shape.count)).map { try normalizedAxis($0, rank: shape.count, op: op) }
        var kept = shape, final: [Int] = []
        for d in 0..<shape.count {
            if axes.contains(d) { kept[d] = 1; if keepingDimensions { final.append(1) } } else { final.append(shape[d]) }
        }
        return (kept, final)
    }
}

func normalizedAxis(_ axis: Int, rank: Int, op: String) throws -> Int {
    let a = axis < 0 ? axis + rank : axis
    guard a >= 0, a < rank else {
        throw TensorError.invalidArgument(op: op, reason: "axis \(axis) is out of range for rank \(rank)")
    }
    return a
}
