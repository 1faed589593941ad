/// Per-channel kernels over NCHW data: batch-norm statistics, normalisation and its
/// training-mode backward, frozen (affine) batch norm, and channel bias / sums.
///
/// Every reduction runs one channel per worker task, summing images in order, so results
/// are bit-identical for any thread count.
public enum BatchNormKernel {
    /// Batch mean and biased variance of every channel over (N, H, W).
    public static func statistics(
        input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int,
        mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(channels) { c in
            (mean[c], variance[c]) = channelStatistics(c, input: input, batch: batch, channels: channels, spatial: spatial)
        }
    }

    static func channelStatistics(
        _ c: Int, input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int
    ) -> (mean: Float, variance: Float) {
        let count = Double(batch * spatial)
        guard count > 0 else { return (0, 0) }
        let shift = input[c * spatial]
        var sum = 0.0, squares = 0.0
        for n in 0..<batch {
            let (s, q) = VectorSums.shiftedMoments(input + (n * channels + c) * spatial, count: spatial, shift: shift)
            sum += s
            squares += q
        }
        let centred = sum / count
        return (Float(Double(shift) + centred), Float(max(0, squares / count - centred * centred)))
    }

    /// Training-mode forward in one task per channel: `statistics`, `invStd = 1/√(variance + ε)`,
    /// then `normalize` of that channel's planes while they are still in cache (the separate
    /// calls read the whole tensor twice from memory). Results are those of the separate calls.
    public static func trainingForward(
        input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int, epsilon: Float,
        gamma: UnsafePointer<Float>?, beta: UnsafePointer<Float>?, activation: ActivationKind? = nil,
        mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(channels) { c in
            channelTrainingForward(
                c, input: input, batch: batch, channels: channels, spatial: spatial, epsilon: epsilon, gamma: gamma, beta: beta,
                activation: activation, mean: mean, variance: variance, invStd: invStd, output: output)
        }
    }

    /// Channel `c` of `trainingForward`, for an op that has just produced that channel's planes
    /// and normalises them while they are in cache (`NormalizedDepthwise`): the same bits.
    @inline(__always)
    static func channelTrainingForward(
        _ c: Int, input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int, epsilon: Float,
        gamma: UnsafePointer<Float>?, beta: UnsafePointer<Float>?, activation: ActivationKind?,
        mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>
    ) {
        channelTrainingStatistics(
            c, input: input, batch: batch, channels: channels, spatial: spatial, epsilon: epsilon, mean: mean,
            variance: variance, invStd: invStd)
        let (scale, shift) = normalizingAffine(c, mean: mean, invStd: invStd, gamma: gamma, beta: beta)
        for n in 0..<batch {
            let offset = (n * channels + c) * spatial
            VectorSums.affine(
                input + offset, count: spatial, scale: scale, shift: shift, activation: activation, output: output + offset)
        }
    }

    /// `trainingForward`'s statistics without the normalisation, for an op that normalises
    /// later, plane by plane (`NormalizedDepthwise`): the same values, bit for bit.
    public static func trainingStatistics(
        input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int, epsilon: Float,
        mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(channels) { c in
            channelTrainingStatistics(
                c, input: input, batch: batch, channels: channels, spatial: spatial, epsilon: epsilon, mean: mean,
                variance: variance, invStd: invStd)
        }
    }

    @inline(__always)
    static func channelTrainingStatistics(
        _ c: Int, input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int, epsilon: Float,
        mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>
    ) {
        (mean[c], variance[c]) = channelStatistics(c, input: input, batch: batch, channels: channels, spatial: spatial)
        invStd[c] = 1 / (variance[c] + epsilon).squareRoot()
    }

    /// `y = act((x − mean) · invStd · gamma + beta)`; nil gamma/beta mean 1/0, nil
    /// activation the identity. relu/relu6 are fused into the same pass (saving a read and a
    /// write of the tensor); the backward of a fused activation is `Activation.backward` on
    /// this output. y may equal x.
    public static func normalize(
        input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int,
        mean: UnsafePointer<Float>, invStd: UnsafePointer<Float>, gamma: UnsafePointer<Float>?,
        beta: UnsafePointer<Float>?, activation: ActivationKind? = nil, output: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(batch * channels) { p in
            let c = p % channels
            let (scale, shift) = normalizingAffine(c, mean: mean, invStd: invStd, gamma: gamma, beta: beta)
            VectorSums.affine(
                input + p * spatial, count: spatial, scale: scale, shift: shift, activation: activation, output: output + p * spatial)
        }
    }

    /// `normalize`'s per-channel `x · scale + shift`; the backward recomputes the fused
    /// activation's input with it, bit for bit.
    @inline(__always)
    static func normalizingAffine(
        _ c: Int, mean: UnsafePointer<Float>, invStd: UnsafePointer<Float>, gamma: UnsafePointer<Float>?,
        beta: UnsafePointer<Float>?
    ) -> (scale: Float, shift: Float) {
        let scale = invStd[c] * (gamma?[c] ?? 1)
        return (scale, (beta?[c] ?? 0) - mean[c] * scale)
    }

    /// Training-mode backward (the statistics depend on the batch):
    /// `dx = gamma·invStd·(dy − mean(dy) − x̂·mean(dy·x̂))`, `dgamma = Σ dy·x̂`, `dbeta = Σ dy`.
    /// With `activation` (relu or relu6, fused in `normalize` with the same mean, invStd,
    /// gamma and beta), `gradOutput` is the gradient of the activation's output and is masked
    /// by its derivative, read from the pre-activation `x · scale + shift` recomputed from
    /// the input already being streamed: identical to `normalize`'s, so the mask equals the
    /// one its output gives, without reading that output (5 tensor passes instead of 7).
    /// gradInput may equal gradOutput.
    public static func backward(
        gradOutput: UnsafePointer<Float>, input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int,
        mean: UnsafePointer<Float>, invStd: UnsafePointer<Float>, gamma: UnsafePointer<Float>?,
        beta: UnsafePointer<Float>?, activation: ActivationKind? = nil,
        gradInput: UnsafeMutablePointer<Float>, gradGamma: UnsafeMutablePointer<Float>?,
        gradBeta: UnsafeMutablePointer<Float>?
    ) {
        let mask = FusedActivationMask(activation)
        Parallel.forEach(channels) { c in
            let (scale, shift) = normalizingAffine(c, mean: mean, invStd: invStd, gamma: gamma, beta: beta)
            var sums = GradientSums()
            for n in 0..<batch {
                let offset = (n * channels + c) * spatial
                sums.add(gradOutput: gradOutput + offset, input: input + offset, count: spatial, scale: scale, shift: shift, mask: mask)
            }
            guard let coefficients = BackwardCoefficients(
                c, sums: sums, count: batch * spatial, mean: mean, invStd: invStd, gamma: gamma,
                gradGamma: gradGamma, gradBeta: gradBeta) else { return }
            for n in 0..<batch {
                let offset = (n * channels + c) * spatial
                coefficients.combine(
                    gradOutput: gradOutput + offset, input: input + offset, count: spatial, scale: scale, shift: shift,
                    mask: mask, output: gradInput + offset)
            }
        }
    }

    /// One channel's `Σ dy·m` and `Σ dy·m·x` (m: the fused activation's derivative, 1 without
    /// one), added plane by plane in image order; in Double, so the centring below is safe.
    struct GradientSums {
        var sumG = 0.0, sumGX = 0.0

        @inline(__always)
        mutating func add(
            gradOutput: UnsafePointer<Float>, input: UnsafePointer<Float>, count: Int, scale: Float, shift: Float,
            mask: FusedActivationMask?
        ) {
            if let mask {
                let (s, d) = VectorSums.preActivationMaskedSumAndDot(
                    gradOutput, input, count: count, scale: scale, shift: shift, lower: mask.lower, upper: mask.upper)
                sumG += s
                sumGX += d
            } else {
                sumG += VectorSums.sum(gradOutput, count: count)
                sumGX += VectorSums.dot(gradOutput, input, count: count)
            }
        }
    }

    /// One channel's `dx = a·dy·m + b·x + k` from its `GradientSums`; writes dgamma and dbeta.
    struct BackwardCoefficients {
        let a: Float, b: Float, k: Float

        /// Nil for an empty channel (its dgamma and dbeta are still written).
        @inline(__always)
        init?(
            _ c: Int, sums: GradientSums, count: Int, mean: UnsafePointer<Float>, invStd: UnsafePointer<Float>,
            gamma: UnsafePointer<Float>?, gradGamma: UnsafeMutablePointer<Float>?, gradBeta: UnsafeMutablePointer<Float>?
        ) {
            let m = mean[c], s = invStd[c]
            // Σ dy·(x − mean) from Σ dy·x: the data sums are in Double, so the subtraction is safe.
            let sumGCentred = Float(sums.sumGX - Double(m) * sums.sumG)
            gradBeta?[c] = Float(sums.sumG)
            gradGamma?[c] = sumGCentred * s
            guard count > 0 else { return nil }
            let count = Float(count)
            a = (gamma?[c] ?? 1) * s
            b = -a * s * s * sumGCentred / count
            k = -a * Float(sums.sumG) / count - b * m
        }

        @inline(__always)
        func combine(
            gradOutput: UnsafePointer<Float>, input: UnsafePointer<Float>, count: Int, scale: Float, shift: Float,
            mask: FusedActivationMask?, output: UnsafeMutablePointer<Float>
        ) {
            if let mask {
                VectorSums.preActivationCombineMasked(
                    gradOutput, input, count: count, scale: scale, shift: shift, lower: mask.lower, upper: mask.upper,
                    a: a, b: b, c: k, output: output)
            } else {
                VectorSums.combine(gradOutput, input, count: count, a: a, b: b, c: k, output: output)
            }
        }
    }

    /// Frozen batch norm: `y = act(x · scale[c] + shift[c])`, activation fused as in
    /// `normalize`. y may equal x.
    public static func affine(
        input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int,
        scale: UnsafePointer<Float>, shift: UnsafePointer<Float>, activation: ActivationKind? = nil,
        output: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(batch * channels) { p in
            let c = p % channels
            VectorSums.affine(
                input + p * spatial, count: spatial, scale: scale[c], shift: shift[c], activation: activation,
                output: output + p * spatial)
        }
    }

    /// Backward of `affine`: `dx = dy·scale`, `dscale = Σ dy·x`, `dshift = Σ dy`; a fused
    /// relu/relu6 masks `gradOutput` by its derivative read from `activationOutput`.
    /// gradInput may equal gradOutput (the sums are taken first).
    public static func affineBackward(
        gradOutput: UnsafePointer<Float>, input: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int,
        scale: UnsafePointer<Float>, activation: ActivationKind? = nil, activationOutput: UnsafePointer<Float>? = nil,
        gradInput: UnsafeMutablePointer<Float>?, gradScale: UnsafeMutablePointer<Float>?,
        gradShift: UnsafeMutablePointer<Float>?
    ) {
        let mask = FusedActivationMask(activation)
        precondition(mask == nil || activationOutput != nil, "a fused activation needs activationOutput")
        Parallel.forEach(channels) { c in
            var sumG = 0.0, sumGX = 0.0
            if gradShift != nil || gradScale != nil {
                for n in 0..<batch {
                    let offset = (n * channels + c) * spatial
                    if let mask, let y = activationOutput {
                        let (s, d) = VectorSums.maskedSumAndDot(
                            gradOutput + offset, input + offset, y + offset, count: spatial, lower: mask.lower, upper: mask.upper)
                        sumG += s
                        sumGX += d
                    } else {
                        if gradShift != nil { sumG += VectorSums.sum(gradOutput + offset, count: spatial) }
                        if gradScale != nil { sumGX += VectorSums.dot(gradOutput + offset, input + offset, count: spatial) }
                    }
                }
            }
            gradShift?[c] = Float(sumG)
            gradScale?[c] = Float(sumGX)
            guard let gradInput else { return }
            for n in 0..<batch {
                let offset = (n * channels + c) * spatial
                if let mask, let y = activationOutput {
                    VectorSums.combineMasked(
                        gradOutput + offset, input + offset, y + offset, count: spatial, lower: mask.lower,
                        upper: mask.upper, a: scale[c], b: 0, c: 0, output: gradInput + offset)
                } else {
                    VectorSums.affine(gradOutput + offset, count: spatial, scale: scale[c], shift: 0, output: gradInput + offset)
                }
            }
        }
    }

    /// `data[n, c, :] += bias[c]` in place.
    public static func channelBiasAdd(
        _ data: UnsafeMutablePointer<Float>, batch: Int, channels: Int, spatial: Int, bias: UnsafePointer<Float>
    ) {
        Parallel.forEach(batch * channels) { p in
            VectorSums.affine(data + p * spatial, count: spatial, scale: 1, shift: bias[p % channels], output: data + p * spatial)
        }
    }

    /// `sum[c] = Σ_{n, s} data[n, c, s]` (the gradient of a channel bias).
    public static func channelSum(
        _ data: UnsafePointer<Float>, batch: Int, channels: Int, spatial: Int, sum: UnsafeMutablePointer<Float>
    ) {
        Parallel.forEach(channels) { c in
            var total = 0.0
            for n in 0..<batch { total += VectorSums.sum(data + (n * channels + c) * spatial, count: spatial) }
            sum[c] = Float(total)
        }
    }
}
