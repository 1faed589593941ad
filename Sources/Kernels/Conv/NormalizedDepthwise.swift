/// Training-mode batch norm (batch statistics, optionally fused with relu or relu6) followed by
/// a 3×3 depthwise convolution (pad 1, stride 1 or 2, no bias), without the normalised tensor —
/// and optionally the depthwise layer's own batch norm (`FollowingNormalization`).
///
/// Why: the depthwise kernels copy every input plane into a bordered buffer anyway, so the
/// normalisation can be done per plane as that copy (the stride-2 forward, whose kernel splits
/// rows instead, just before it), in cache. The normalised tensor is then never written nor read
/// back (MobileNet's largest tensors feed its depthwise layers). The backward works one channel
/// at a time and keeps that channel's gradients in per-worker buffers: the following batch norm's
/// input gradient (read at once by the depthwise backward) and the depthwise input gradient (read
/// at once by batch norm's sums and input gradient), instead of whole tensors in memory.
///
/// Bits: every value comes from the functions `BatchNormKernel.trainingForward`/`backward` and
/// `DepthwiseConv.forward`/`backward` use, in the same order (channels in one task, images in
/// order), so the results equal those of the separate ops for any thread count.
public enum NormalizedDepthwise {
    /// Input planes from this size (floats, 64×128 and up: the first four fused layers) run one
    /// channel a task in the forward, so the statistics pass leaves the planes in cache for the
    /// convolution; smaller ones take all statistics first, then split the planes by image, which
    /// streams contiguous memory (one channel a task for every layer measured 0.97× the step).
    static let channelTaskPlane = 8192

    /// Whether the fused op covers `g`: a depthwise 3×3, pad 1, stride 1 or 2.
    public static func isSupported(_ g: Conv2dGeometry) -> Bool { g.isDepthwise3x3 }

    /// The statistics (`mean`, biased `variance`, `invStd`) of `input` as `trainingForward`
    /// computes them, then `output` = depthwise(act(normalise(input))) — or, with `following`, that
    /// depthwise output stored in `following.convolved` and `output` its normalisation.
    public static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, epsilon: Float, gamma: UnsafePointer<Float>?,
        beta: UnsafePointer<Float>?, activation: ActivationKind?, weight: UnsafePointer<Float>,
        mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>,
        output: UnsafeMutablePointer<Float>, following: FollowingNormalization? = nil
    ) {
        precondition(isSupported(g), "NormalizedDepthwise takes a depthwise 3×3, pad 1, stride 1 or 2: \(g)")
        let channels = g.inChannels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let convolved = following?.convolved ?? output
        func convolve(_ p: Int, _ convolver: DepthwiseConv.PlaneConvolver, _ normalized: UnsafeMutablePointer<Float>) {
            let c = p % channels
            let (scale, shift) = BatchNormKernel.normalizingAffine(c, mean: mean, invStd: invStd, gamma: gamma, beta: beta)
            convolver.forward(normalizing: input + p * inPlane, scale: scale, shift: shift, activation: activation, scratch: normalized,
                              weight: weight + c * 9, output: convolved + p * outPlane)
        }
        if inPlane >= Self.channelTaskPlane {
            // Large planes: one channel a task, its planes convolved right after its statistics
            // pass, while they are still in cache (the input is read from memory once, not twice).
            Parallel.forEachChunk(channels) { channelRange, _ in
                let convolver = DepthwiseConv.PlaneConvolver(g)
                let normalized = Workspace(count: g.strideHeight == 1 ? 0 : inPlane)
                defer { convolver.free(); normalized.free() }
                for c in channelRange {
                    BatchNormKernel.channelTrainingStatistics(
                        c, input: input, batch: g.batch, channels: channels, spatial: inPlane, epsilon: epsilon, mean: mean,
                        variance: variance, invStd: invStd)
                    for n in 0..<g.batch { convolve(n * channels + c, convolver, normalized.pointer) }
                    // The following normalisation of this channel's planes just written, before
                    // they leave the cache (a pass after all channels reads them twice more: from
                    // DRAM where the L3 does not hold the layer, 2–4 ms of the forward on a Zen 3 host).
                    following?.forward(c, g, output: output)
                }
            }
            return
        }
        BatchNormKernel.trainingStatistics(
            input: input, batch: g.batch, channels: channels, spatial: inPlane, epsilon: epsilon, mean: mean,
            variance: variance, invStd: invStd)
        Parallel.forEachChunk(g.batch * channels) { planes, _ in
            let convolver = DepthwiseConv.PlaneConvolver(g)
            let normalized = Workspace(count: g.strideHeight == 1 ? 0 : inPlane)
            defer { convolver.free(); normalized.free() }
            for p in planes { convolve(p, convolver, normalized.pointer) }
        }
        guard let following else { return }
        // Small planes: after the whole convolution (one channel a task, as `following.forward` does).
        BatchNormKernel.trainingForward(
            input: convolved, batch: g.batch, channels: channels, spatial: outPlane, epsilon: following.epsilon,
            gamma: following.gamma, beta: following.beta, activation: following.activation, mean: following.mean,
            variance: following.variance, invStd: following.invStd, output: output)
    }

    /// Gradients of `forward`'s output (`gradOutput`) with respect to its input (`gradInput`), the
    /// filters (`gradWeight`), and gamma and beta (and `following`'s), from what `forward` stored.
    public static func backward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
        mean: UnsafePointer<Float>, invStd: UnsafePointer<Float>, gamma: UnsafePointer<Float>?,
        beta: UnsafePointer<Float>?, activation: ActivationKind?, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>, gradWeight: UnsafeMutablePointer<Float>,
        gradGamma: UnsafeMutablePointer<Float>?, gradBeta: UnsafeMutablePointer<Float>?,
        following: FollowingNormalization? = nil
    ) {
        precondition(isSupported(g), "NormalizedDepthwise takes a depthwise 3×3, pad 1, stride 1 or 2: \(g)")
        let channels = g.inChannels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let mask = FusedActivationMask(activation)
        Parallel.forEachChunk(channels) { channelRange, _ in
            var planes = DepthwiseConv.PlaneBackward(g)
            // The depthwise input gradients of all one channel's images, and with a following
            // batch norm the depthwise output's gradients of all its images (each normalised input
            // plane goes straight into the depthwise kernel's bordered buffer).
            let gradNormalized = Workspace(count: g.batch * inPlane)
            let gradConvolved = Workspace(count: following == nil ? 0 : g.batch * outPlane)
            defer { planes.free(); gradNormalized.free(); gradConvolved.free() }
            for c in channelRange {
                // The depthwise output's gradient: `gradOutput` itself, or the following batch
                // norm's input gradient, made for this channel only, as `BatchNormKernel.backward` makes it.
                var gradOutputPlanes = (first: gradOutput + c * outPlane, imageStride: channels * outPlane)
                if let following {
                    following.backward(c, g, gradOutput: gradOutput, into: gradConvolved.pointer)
                    gradOutputPlanes = (UnsafePointer(gradConvolved.pointer), outPlane)
                }
                let (scale, shift) = BatchNormKernel.normalizingAffine(c, mean: mean, invStd: invStd, gamma: gamma, beta: beta)
                planes.startChannel(weight: weight + c * 9)
                var sums = BatchNormKernel.GradientSums()
                for n in 0..<g.batch {
                    let p = n * channels + c
                    let x = input + p * inPlane, gz = gradNormalized.pointer + n * inPlane
                    planes.add(normalizing: x, scale: scale, shift: shift, activation: activation,
                               gradOutput: gradOutputPlanes.first + n * gradOutputPlanes.imageStride, gradInput: gz)
                    sums.add(gradOutput: gz, input: x, count: inPlane, scale: scale, shift: shift, mask: mask)
                }
                planes.finishChannel(gradWeight: gradWeight + c * 9)
                guard let coefficients = BatchNormKernel.BackwardCoefficients(
                    c, sums: sums, count: g.batch * inPlane, mean: mean, invStd: invStd, gamma: gamma,
                    gradGamma: gradGamma, gradBeta: gradBeta) else { continue }
                for n in 0..<g.batch {
                    let p = n * channels + c
                    coefficients.combine(
                        gradOutput: gradNormalized.pointer + n * inPlane, input: input + p * inPlane, count: inPlane,
                        scale: scale, shift: shift, mask: mask, output: gradInput + p * inPlane)
                }
            }
        }
    }

    /// A training-mode batch norm (+ relu/relu6) on the depthwise layer's output, run by the
    /// same op (`Variable.batchNormDepthwise(…, then:)`): its forward is `trainingForward` on the
    /// stored depthwise output (`convolved`), and its backward runs one channel at a time inside
    /// the depthwise backward, so the depthwise output's gradient never goes to memory.
    public struct FollowingNormalization {
        public var epsilon: Float
        public var gamma: UnsafePointer<Float>?, beta: UnsafePointer<Float>?
        public var activation: ActivationKind?
        /// Written by the forward, read by the backward.
        public var mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>
        /// The depthwise output before this normalisation: written by the forward, read by the backward.
        public var convolved: UnsafeMutablePointer<Float>
        /// Written by the backward.
        public var gradGamma: UnsafeMutablePointer<Float>?, gradBeta: UnsafeMutablePointer<Float>?

        public init(
            epsilon: Float, gamma: UnsafePointer<Float>?, beta: UnsafePointer<Float>?, activation: ActivationKind?,
            mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>, invStd: UnsafeMutablePointer<Float>,
            convolved: UnsafeMutablePointer<Float>, gradGamma: UnsafeMutablePointer<Float>? = nil,
            gradBeta: UnsafeMutablePointer<Float>? = nil
        ) {
            (self.epsilon, self.gamma, self.beta, self.activation) = (epsilon, gamma, beta, activation)
            (self.mean, self.variance, self.invStd, self.convolved) = (mean, variance, invStd, convolved)
            (self.gradGamma, self.gradBeta) = (gradGamma, gradBeta)
        }

        /// Channel `c` of `BatchNormKernel.trainingForward` for this normalisation, on `convolved`.
        @inline(__always)
        func forward(_ c: Int, _ g: Conv2dGeometry, output: UnsafeMutablePointer<Float>) {
            BatchNormKernel.channelTrainingForward(
                c, input: convolved, batch: g.batch, channels: g.outChannels, spatial: g.outHeight * g.outWidth, epsilon: epsilon,
                gamma: gamma, beta: beta, activation: activation, mean: mean, variance: variance, invStd: invStd, output: output)
        }

        /// Channel `c` of `BatchNormKernel.backward` for this normalisation: the gradients of
        /// its input's planes, image by image, into `into` (`outPlane` floats apart).
        @inline(__always)
        func backward(_ c: Int, _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, into: UnsafeMutablePointer<Float>) {
            let channels = g.outChannels, spatial = g.outHeight * g.outWidth
            let mask = FusedActivationMask(activation)
            let (scale, shift) = BatchNormKernel.normalizingAffine(
                c, mean: UnsafePointer(mean), invStd: UnsafePointer(invStd), gamma: gamma, beta: beta)
            var sums = BatchNormKernel.GradientSums()
            for n in 0..<g.batch {
                let offset = (n * channels + c) * spatial
                sums.add(gradOutput: gradOutput + offset, input: convolved + offset, count: spatial, scale: scale, shift: shift, mask: mask)
            }
            guard let coefficients = BatchNormKernel.BackwardCoefficients(
                c, sums: sums, count: g.batch * spatial, mean: UnsafePointer(mean), invStd: UnsafePointer(invStd), gamma: gamma,
                gradGamma: gradGamma, gradBeta: gradBeta)
            else { preconditionFailure("NormalizedDepthwise: a following batch norm over no values (\(g))") }
            for n in 0..<g.batch {
                let offset = (n * channels + c) * spatial
                coefficients.combine(
                    gradOutput: gradOutput + offset, input: convolved + offset, count: spatial, scale: scale, shift: shift,
                    mask: mask, output: into + n * spatial)
            }
        }
    }
}
