import Kernels
import Tensor

extension Variable {
    /// Sum over `axes` (all axes when nil). With `keepingDimensions`, reduced axes stay as 1.
    public func sum(axes: [Int]? = nil, keepingDimensions: Bool = false) throws -> Variable {
        try reduction(.sum, axes: axes, keepingDimensions: keepingDimensions)
    }

    public func mean(axes: [Int]? = nil, keepingDimensions: Bool = false) throws -> Variable {
        try reduction(.mean, axes: axes, keepingDimensions: keepingDimensions)
    }

    /// Sum, scaled by 1/n for a mean: one recorded op either way, so a mean is profiled (and
    /// named in errors) as `mean`, not as a sum and a multiply.
    private func reduction(_ kind: OpKind, axes: [Int]?, keepingDimensions: Bool) throws -> Variable {
        let (kept, final) = try reducedShapes(axes: axes, keepingDimensions: keepingDimensions, op: kind.rawValue)
        let reducedCount = Tensor.elementCount(shape) / max(Tensor.elementCount(kept), 1)
        let scale: Float? = kind == .mean ? 1 / Float(max(reducedCount, 1)) : nil
        let input = value
        let out = tape.timed(kind) { () -> Tensor in
            var out = Tensor(uninitialized: kept)
            out.withUnsafeMutableBufferPointer {
                Reduce.sum(input.pointer, shape: input.shape, into: $0.baseAddress!, outputShape: kept)
                if let scale { Vector.scale($0.baseAddress!, by: scale, into: $0.baseAddress!, count: $0.count) }
            }
            return Tensor(shape: final, storage: out.storage)
        }
        let inputShape = input.shape
        return tape.record(kind, inputs: [self], output: out) { g, _ in
            let spread = try Tensor.elementwise(.add, Tensor(zeros: inputShape), g.reshaped(kept), opName: "\(kind.rawValue) backward")
            return [scale.map { spread.scaled(by: $0) } ?? spread]
        }
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
