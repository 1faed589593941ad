import Kernels
import Tensor

extension Variable {
    /// 2-D convolution, NCHW input and [outC, inC/groups, kh, kw] weight. Dense 1×1 runs as a
    /// GEMM, depthwise (groups = inC = outC) as a direct SIMD kernel, the rest as im2col + GEMM.
    public func conv2d(weight: Variable, bias: Variable? = nil, stride: (Int, Int) = (1, 1), padding: (Int, Int) = (0, 0),
                       groups: Int = 1) throws -> Variable {
        let opName = "conv2d"
        guard shape.count == 4, weight.shape.count == 4 else {
            throw TensorError.shapeMismatch(op: opName, shapes: [shape, weight.shape], reason: "input must be [N,C,H,W] and weight [outC,inC/groups,kh,kw]")
        }
        guard groups > 0, shape[1] == weight.shape[1] * groups, weight.shape[0] % groups == 0 else {
            throw TensorError.shapeMismatch(op: opName, shapes: [shape, weight.shape],
                                            reason: "input channels \(shape[1]) must equal weight in-channels \(weight.shape[1]) × groups \(groups), and out-channels \(weight.shape[0]) divisible by groups")
        }
        if let bias, bias.shape != [weight.shape[0]] {
            throw TensorError.shapeMismatch(op: opName, shapes: [bias.shape, [weight.shape[0]]], reason: "bias must have one value per output channel")
        }
        let geometry: Conv2dGeometry
        do {
            geometry = try Conv2dGeometry(batch: shape[0], inChannels: shape[1], inHeight: shape[2], inWidth: shape[3],
                                          outChannels: weight.shape[0], kernelHeight: weight.shape[2], kernelWidth: weight.shape[3],
                                          strideHeight: stride.0, strideWidth: stride.1, padHeight: padding.0, padWidth: padding.1, groups: groups)
        } catch {
            throw TensorError.invalidArgument(op: opName, reason: "\(error) (input \(shape), weight \(weight.shape))")
        }
        let kind: OpKind = groups > 1 && groups == shape[1] && groups == weight.shape[0] ? .depthwiseConv2d : .conv2d
        let input = value, filters = weight.value, biasValue = bias?.value
        let out = tape.timed(kind) { () -> Tensor in
            var out = Tensor(uninitialized: [geometry.batch, geometry.outChannels, geometry.outHeight, geometry.outWidth])
            out.withUnsafeMutableBufferPointer {
                Conv2dKernel.forward(geometry, input: input.pointer, weight: filters.pointer, bias: biasValue?.pointer, output: $0.baseAddress!)
            }
            return out
        }
        let inputs = [self, weight] + (bias.map { [$0] } ?? [])
        return try sameTape(inputs[0], inputs[1]).record(kind, inputs: inputs, output: out) { g, needed in
            let wantBias = needed.count > 2 && needed[2]
            var gradInput = needed[0] ? Tensor(uninitialized: input.shape) : nil
            var gradWeight = needed[1] ? Tensor(uninitialized: filters.shape) : nil
            var gradBias = wantBias ? Tensor(uninitialized: [geometry.outChannels]) : nil
            gradInput.withOptionalMutablePointer { gi in
                gradWeight.withOptionalMutablePointer { gw in
                    gradBias.withOptionalMutablePointer { gb in
                        Conv2dKernel.backward(geometry, input: input.pointer, gradOutput: g.pointer, weight: filters.pointer,
                                              gradInput: gi, gradWeight: gw, gradBias: gb)
                    }
                }
            }
            return [gradInput, gradWeight] + (needed.count > 2 ? [gradBias] : [])
        }
    }

    /// Fully connected: x [N, in] · weightᵀ [out, in] + bias [out].
    public func linear(weight: Variable, bias: Variable? = nil) throws -> Variable {
        guard shape.count == 2, weight.shape.count == 2, shape[1] == weight.shape[1] else {
            throw TensorError.shapeMismatch(op: "linear", shapes: [shape, weight.shape], reason: "expected x [N, in] and weight [out, in]")
        }
        let product = try matmul(weight, transposeRight: true)
        guard let bias else { return product }
        return try product + bias
    }

    /// Matrix product of 2-D variables: self [m, k] × other [k, n] (or otherᵀ when `transposeRight`).
    public func matmul(_ other: Variable, transposeRight: Bool = false) throws -> Variable {
        guard shape.count == 2, other.shape.count == 2 else {
            throw TensorError.shapeMismatch(op: "matmul", shapes: [shape, other.shape], reason: "both operands must be 2-D")
        }
        let (m, k) = (shape[0], shape[1])
        let (k2, n) = transposeRight ? (other.shape[1], other.shape[0]) : (other.shape[0], other.shape[1])
        guard k == k2 else {
            throw TensorError.shapeMismatch(op: "matmul", shapes: [shape, other.shape], reason: "inner dimensions \(k) and \(k2) differ\(transposeRight ? " (right operand transposed)" : "")")
        }
        let a = value, b = other.value
        let ldb = other.shape[1]
        let out = tape.timed(.matmul) { () -> Tensor in
            var out = Tensor(uninitialized: [m, n])
            out.withUnsafeMutableBufferPointer {
                GEMM.multiply(transposeA: false, transposeB: transposeRight, m: m, n: n, k: k, a: a.pointer, lda: k, b: b.pointer, ldb: ldb, c: $0.baseAddress!, ldc: n)
            }
            return out
        }
        return try sameTape(self, other).record(.matmul, inputs: [self, other], output: out) { g, needed in
            var ga: Tensor?, gb: Tensor?
            if needed[0] { // dA = dC · op(B)ᵀ
                var t = Tensor(uninitialized: [m, k])
                t.withUnsafeMutableBufferPointer {
                    GEMM.multiply(transposeA: false, transposeB: !transposeRight, m: m, n: k, k: n, a: g.pointer, lda: n, b: b.pointer, ldb: ldb, c: $0.baseAddress!, ldc: k)
                }
                ga = t
            }
            if needed[1] { // dB = Aᵀ · dC, or (Aᵀ · dC)ᵀ = dCᵀ · A when B was transposed
                var t = Tensor(uninitialized: b.shape)
                t.withUnsafeMutableBufferPointer {
                    if transposeRight {
                        GEMM.multiply(transposeA: true, transposeB: false, m: n, n: k, k: m, a: g.pointer, lda: n, b: a.pointer, ldb: k, c: $0.baseAddress!, ldc: k)
                    } else {
                        GEMM.multiply(transposeA: true, transposeB: false, m: k, n: n, k: m, a: a.pointer, lda: k, b: g.pointer, ldb: n, c: $0.baseAddress!, ldc: n)
                    }
                }
                gb = t
            }
            return [ga, gb]
        }
    }
}

private extension Optional where Wrapped == Tensor {
    /// The tensor's mutable storage, or nil for no tensor.
    mutating func withOptionalMutablePointer(_ body: (UnsafeMutablePointer<Float>?) -> Void) {
        if case .some(var tensor) = self {
            self = nil  // the tensor held alone, so writing through it copies nothing
            tensor.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
            self = tensor
        } else {
            body(nil)
        }
    }
}
