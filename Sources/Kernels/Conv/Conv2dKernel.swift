/// 2-D convolution over NCHW float tensors: forward, gradient of the input, gradient of
/// the weight (and bias).
///
/// Paths: 1×1/stride 1/pad 0/one group → one GEMM per image, no im2col (or, inside
/// `withDenseKernels(.packed)`, forwards of one group at stride 1 or 2 and input gradients
/// at stride 1 on `PackedConv2d`, and 1×1 weight gradients on `DirectWeightGradient`; with
/// `.winograd` the stride-1 3×3 ones on `Winograd3x3`, and with `.winogradWeights` their weight
/// gradients on `WinogradWeightGradient`); depthwise (groups == in == out channels) → direct SIMD loops
/// (3×3 pad 1 stride 1/2) or a generic direct loop; everything else → im2col + GEMM per image
/// and group.
///
/// Threading: GEMM paths run images in parallel when `batch ≥ Parallel.threadCount`
/// (OpenBLAS single-threaded per worker), otherwise image by image with each GEMM split
/// across workers. Depthwise runs (image, channel) planes in parallel, and its weight
/// gradient channels in parallel, so it is bit-identical for any thread count.
/// GEMM weight gradients keep one partial per worker, summed in worker order:
/// bit-identical for a fixed thread count, equal to rounding across thread counts.
public enum Conv2dKernel {
    /// The kernels of the dense convolutions of one group in the training graph. Each choice sums
    /// in its own order, so the same seed trains to other bits under each (`dense_kernels`).
    public enum DenseKernels: String, CaseIterable, Sendable {
        /// im2col + OpenBLAS sgemm per image, for every pass.
        case openblas
        /// Forwards at stride 1 or 2 and stride-1 input gradients on `PackedConv2d` (filters packed
        /// per call), 1×1 weight gradients as row dot products (`DirectWeightGradient`); the other
        /// weight gradients on sgemm.
        case packed
        /// `packed`, with the forwards and input gradients of the 3×3, stride-1, pad-1 layers by
        /// Winograd's F(2×2, 3×3) (`Winograd3x3`: 2.25× fewer multiply-adds), and every dense
        /// weight gradient as row dot products (the stem's and the 3×3 layers' on panels unfolded
        /// per task, `DirectWeightGradient`). Together 1.04× the real step of `packed`.
        case winograd
        /// `winograd`, with the 3×3, stride-1, pad-1 layers' weight gradients in Winograd's domain
        /// too (`WinogradWeightGradient`: F(3×3, 2×2), 2.25× fewer multiply-adds than their direct
        /// sums). Opt-in: its rounding differs from `winograd`'s in those layers.
        case winogradWeights = "winograd-weights"
    }

    /// `output = conv(input, weight) + bias`; output is overwritten.
    public static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>
    ) {
        if g.batch == 0 { return }
        if g.isDepthwise {
            DepthwiseConv.forward(g, input: input, weight: weight, bias: bias, output: output)
        } else {
            GEMMConv.forward(g, input: input, weight: weight, bias: bias, output: output)
        }
    }

    /// Runs `body` with the dense (non-depthwise) convolutions on `kernels` (`DenseKernels`).
    /// `bench train --dense-kernels` times them.
    public static func withDenseKernels<T>(_ kernels: DenseKernels, _ body: () throws -> T) rethrows -> T {
        try GEMMConv.$denseKernels.withValue(kernels, operation: body)
    }

    /// How the direct weight gradients (`DirectWeightGradient`: the 1×1 layers under `packed`, every
    /// dense layer under `winograd`) multiply: the same bits either way, so only speed differs.
    public enum WeightGradientRoute: String, CaseIterable {
        /// Blocks of row dot products (2 × 3 on AVX2, 4 × 4 on AVX-512).
        case dotProducts = "dot-products"
        /// 16 lane-wise matrix products on packed rows, halved (AVX2's default, spans of whole 16-position steps).
        case laneMajor = "lane-major"
    }

    /// Runs `body` with the direct weight gradients on `route` wherever it applies, for benchmarks
    /// and tests (otherwise each instruction set uses its faster route).
    public static func withWeightGradientRoute<T>(_ route: WeightGradientRoute, _ body: () throws -> T) rethrows -> T {
        try DirectWeightGradient.$forcedRoute.withValue(route, operation: body)
    }

    /// `gradInput = ∂L/∂input` from `gradOutput`; gradInput is overwritten.
    public static func backwardInput(
        _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>
    ) {
        if g.batch == 0 { return }
        if g.isDepthwise {
            DepthwiseConv.backwardInput(g, gradOutput: gradOutput, weight: weight, gradInput: gradInput)
        } else {
            GEMMConv.backwardInput(g, gradOutput: gradOutput, weight: weight, gradInput: gradInput)
        }
    }

    /// The gradients a backward pass needs, each overwritten when given: `backwardInput` and
    /// `backwardWeight`, or, for a 3×3 depthwise layer that wants both, one pass over its planes
    /// with the same bits (`DepthwiseConv.backward`).
    public static func backward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>?, gradWeight: UnsafeMutablePointer<Float>?, gradBias: UnsafeMutablePointer<Float>?
    ) {
        if let gradBias {  // the sum backwardWeight would take
            BatchNormKernel.channelSum(gradOutput, batch: g.batch, channels: g.outChannels, spatial: g.outHeight * g.outWidth, sum: gradBias)
        }
        if g.batch > 0, g.isDepthwise3x3, let gradInput, let gradWeight {
            DepthwiseConv.backward(g, input: input, gradOutput: gradOutput, weight: weight, gradInput: gradInput, gradWeight: gradWeight)
            return
        }
        if let gradInput { backwardInput(g, gradOutput: gradOutput, weight: weight, gradInput: gradInput) }
        if let gradWeight { backwardWeight(g, input: input, gradOutput: gradOutput, gradWeight: gradWeight, gradBias: nil) }
    }

    /// `gradWeight = ∂L/∂weight` and, when given, `gradBias = Σ_{n,h,w} gradOutput`;
    /// both are overwritten.
    public static func backwardWeight(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
        gradWeight: UnsafeMutablePointer<Float>, gradBias: UnsafeMutablePointer<Float>?
    ) {
        if let gradBias {
            BatchNormKernel.channelSum(
                gradOutput, batch: g.batch, channels: g.outChannels, spatial: g.outHeight * g.outWidth,
                sum: gradBias)
        }
        if g.batch == 0 {
            gradWeight.update(repeating: 0, count: g.weightCount)
            return
        }
        if g.isDepthwise {
            DepthwiseConv.backwardWeight(g, input: input, gradOutput: gradOutput, gradWeight: gradWeight)
        } else {
            GEMMConv.backwardWeight(g, input: input, gradOutput: gradOutput, gradWeight: gradWeight)
        }
    }
}
