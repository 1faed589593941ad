import Kernels
import Tensor

extension Variable {
    /// Nearest-neighbour 2× upsampling of an NCHW tensor (the FPN top-down path).
    public func upsampledNearest2x() throws -> Variable {
        guard shape.count == 4 else { throw TensorError.shapeMismatch(op: "upsampleNearest2x", shapes: [shape], reason: "expected [N,C,H,W]") }
        let (planes, h, w) = (shape[0] * shape[1], shape[2], shape[3])
        let input = value
        let out = tape.timed(.upsampleNearest2x) { () -> Tensor in
            var out = Tensor(uninitialized: [shape[0], shape[1], 2 * h, 2 * w])
            out.withUnsafeMutableBufferPointer { Upsample.nearest2x(input: input.pointer, planes: planes, height: h, width: w, output: $0.baseAddress!) }
            return out
        }
        return tape.record(.upsampleNearest2x, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: input.shape)
            grad.withUnsafeMutableBufferPointer { Upsample.nearest2xBackward(gradOutput: g.pointer, planes: planes, height: h, width: w, gradInput: $0.baseAddress!) }
            return [grad]
        }
    }

    /// Max pooling over k×k windows (padding counts as −∞).
    public func maxPool2d(kernel: Int, stride: Int? = nil, padding: Int = 0) throws -> Variable {
        let stride = stride ?? kernel
        guard shape.count == 4, kernel > 0, stride > 0, padding >= 0, padding * 2 <= kernel else {
            throw TensorError.invalidArgument(op: "maxPool2d", reason: "input \(shape), kernel \(kernel), stride \(stride), padding \(padding): need [N,C,H,W], positive kernel/stride, padding ≤ kernel/2")
        }
        let (planes, h, w) = (shape[0] * shape[1], shape[2], shape[3])
        let oh = (h + 2 * padding - kernel) / stride + 1, ow = (w + 2 * padding - kernel) / stride + 1
        guard oh > 0, ow > 0 else {
            throw TensorError.invalidArgument(op: "maxPool2d", reason: "kernel \(kernel) larger than padded input \(h)×\(w)")
        }
        let input = value
        var argmax = [Int32](repeating: 0, count: planes * oh * ow)
        let out = try tape.timed(.maxPool2d) { () -> Tensor in
            var out = Tensor(uninitialized: [shape[0], shape[1], oh, ow])
            try out.withUnsafeMutableBufferPointer { o in
                try argmax.withUnsafeMutableBufferPointer { a in
                    try MaxPool.forward(input: input.pointer, planes: planes, height: h, width: w, kernel: kernel, stride: stride, padding: padding,
                                        output: o.baseAddress!, argmax: a.baseAddress!)
                }
            }
            return out
        }
        let indices = argmax
        return tape.record(.maxPool2d, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: input.shape)
            grad.withUnsafeMutableBufferPointer { gi in
                indices.withUnsafeBufferPointer { a in
                    MaxPool.backward(gradOutput: g.pointer, argmax: a.baseAddress!, planes: planes, inputSpatial: h * w,
                                     outputSpatial: oh * ow, gradInput: gi.baseAddress!)
                }
            }
            return [grad]
        }
    }
}
