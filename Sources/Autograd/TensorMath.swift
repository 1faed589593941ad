import Kernels
import Tensor

/// Non-differentiable tensor arithmetic that pullbacks are written in.
extension Tensor {
    static func elementwise(_ op: BinaryOperation, _ a: Tensor, _ b: Tensor, opName: String) throws -> Tensor {
        guard let shape = broadcastShape(a.shape, b.shape) else {
            throw TensorError.shapeMismatch(op: opName, shapes: [a.shape, b.shape], reason: "shapes cannot be broadcast together")
        }
        var out = Tensor(uninitialized: shape)
        out.withUnsafeMutableBufferPointer {
            Binary.apply(op, a: a.pointer, shapeA: a.shape, b: b.pointer, shapeB: b.shape, output: $0.baseAddress!, outputShape: shape)
        }
        return out
    }

    /// Sums a (broadcast) gradient back down to `shape`; a no-op when shapes already agree.
    func summed(toShape shape: [Int]) -> Tensor {
        if self.shape == shape { return self }
        let padded = [Int](repeating: 1, count: rank - shape.count) + shape
        var out = Tensor(uninitialized: padded)
        out.withUnsafeMutableBufferPointer { Reduce.sum(pointer, shape: self.shape, into: $0.baseAddress!, outputShape: padded) }
        return Tensor(shape: shape, storage: out.storage)
    }

    func scaled(by factor: Float) -> Tensor {
        var out = Tensor(uninitialized: shape)
        out.withUnsafeMutableBufferPointer { Vector.scale(pointer, by: factor, into: $0.baseAddress!, count: count) }
        return out
    }

    /// Elementwise map for cold paths (small tensors, tests).
    func mapped(_ f: (Float) -> Float) -> Tensor {
        var out = Tensor(uninitialized: shape)
        out.withUnsafeMutableBufferPointer { o in for i in 0..<count { o[i] = f(pointer[i]) } }
        return out
    }
}
