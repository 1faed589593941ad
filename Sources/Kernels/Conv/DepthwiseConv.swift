/// Depthwise convolution (one filter per channel) as direct loops over (image, channel)
/// planes. 3×3 with pad 1 and stride 1 or 2 uses the SIMD kernels of `Depthwise3x3`;
/// any other kernel, stride or padding uses the scalar loops here.
enum DepthwiseConv {
    static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>
    ) {
        let channels = g.inChannels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let taps = g.kernelHeight * g.kernelWidth
        Parallel.forEachChunk(g.batch * channels) { planes, _ in
            let convolver = PlaneConvolver(g)
            defer { convolver.free() }
            for p in planes {
                let c = p % channels
                convolver.forward(input + p * inPlane, weight: weight + c * taps, bias: bias?[c] ?? 0, output: output + p * outPlane)
            }
        }
    }

    /// One worker's buffers for the forward of single planes: a zero-bordered copy (3×3,
    /// stride 1), split rows (3×3, stride 2), or none (the generic loops).
    struct PlaneConvolver {
        let g: Conv2dGeometry
        let padded: Depthwise3x3.PaddedPlane?
        let split: Depthwise3x3.SplitRows?
        let splitBuffer: UnsafeMutablePointer<Float>?

        init(_ g: Conv2dGeometry) {
            self.g = g
            let fast = g.isDepthwise3x3
            padded = fast && g.strideHeight == 1 ? Depthwise3x3.PaddedPlane(height: g.inHeight, width: g.inWidth) : nil
            split = fast && g.strideHeight == 2 ? Depthwise3x3.SplitRows(height: g.inHeight, width: g.inWidth) : nil
            // Zeroed once: the border and the slots past a row's end are never written, so stay zero for every plane.
            splitBuffer = split.map { rows -> UnsafeMutablePointer<Float> in
                let buffer = UnsafeMutablePointer<Float>.allocate(capacity: rows.count)
                buffer.initialize(repeating: 0, count: rows.count)
                return buffer
            }
        }

        func free() {
            padded?.free()
            splitBuffer?.deallocate()
        }

        /// The output plane `y` of input plane `x` with filter `w` (taps row-major) and `bias`.
        @inline(__always)
        func forward(_ x: UnsafePointer<Float>, weight w: UnsafePointer<Float>, bias b: Float, output y: UnsafeMutablePointer<Float>) {
            if let padded {
                padded.load(x)
                Depthwise3x3.forwardStride1(padded, Filter3x3(w), bias: b, output: y)
            } else if let split, let splitBuffer {
                split.load(x, into: splitBuffer)
                Depthwise3x3.forwardStride2(split: split, buffer: splitBuffer, outHeight: g.outHeight, outWidth: g.outWidth,
                                            Filter3x3(w), bias: b, epilogue: NoEpilogue(), output: y)
            } else {
                genericForward(g, plane: x, weight: w, bias: b, output: y)
            }
        }

        /// `forward` of `act(x · scale + shift)`: at stride 1 normalised straight into the bordered
        /// buffer; otherwise into `scratch` (a plane) first.
        @inline(__always)
        func forward(normalizing x: UnsafePointer<Float>, scale: Float, shift: Float, activation: ActivationKind?,
                     scratch: UnsafeMutablePointer<Float>, weight w: UnsafePointer<Float>, output y: UnsafeMutablePointer<Float>) {
            if let padded {
                padded.loadNormalized(x, scale: scale, shift: shift, activation: activation)
                Depthwise3x3.forwardStride1(padded, Filter3x3(w), bias: 0, output: y)
            } else {
                VectorSums.affine(x, count: g.inHeight * g.inWidth, scale: scale, shift: shift, activation: activation, output: scratch)
                forward(scratch, weight: w, bias: 0, output: y)
            }
        }
    }

    static func backwardInput(
        _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>
    ) {
        let channels = g.inChannels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let taps = g.kernelHeight * g.kernelWidth
        let fast = g.isDepthwise3x3
        Parallel.forEachChunk(g.batch * channels) { planes, _ in
            // Stride 1: the input gradient is the padded gradient correlated with the
            // rotated filter. Stride 2: a gather over zero-padded gradient rows.
            let padded = fast && g.strideHeight == 1 ? Depthwise3x3.PaddedPlane(height: g.outHeight, width: g.outWidth) : nil
            let rows = fast && g.strideHeight == 2 ? Depthwise3x3.GradientRows(outHeight: g.outHeight, outWidth: g.outWidth) : nil
            defer { padded?.free(); rows?.free() }
            for p in planes {
                let c = p % channels
                let gy = gradOutput + p * outPlane, gx = gradInput + p * inPlane
                let w = weight + c * taps
                if let padded {
                    padded.load(gy)
                    Depthwise3x3.forwardStride1(padded, Filter3x3(w, rotated: true), bias: 0, output: gx)
                } else if let rows {
                    Depthwise3x3.backwardInputStride2(
                        gradOutput: gy, outHeight: g.outHeight, outWidth: g.outWidth, Filter3x3(w), rows: rows,
                        gradInput: gx, height: g.inHeight, width: g.inWidth)
                } else {
                    genericBackwardInput(g, gradOutput: gy, weight: w, gradInput: gx)
                }
            }
        }
    }

    static func backwardWeight(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
        gradWeight: UnsafeMutablePointer<Float>
    ) {
        let channels = g.inChannels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let taps = g.kernelHeight * g.kernelWidth
        let fast = g.isDepthwise3x3
        // Each channel's filter gradient sums over all images inside one worker, in image
        // order: no cross-worker reduction, identical for every thread count.
        Parallel.forEachChunk(channels) { channelRange, _ in
            let padded = fast ? Depthwise3x3.PaddedPlane(height: g.inHeight, width: g.inWidth) : nil
            defer { padded?.free() }
            var sums = [Double](repeating: 0, count: taps)
            for c in channelRange {
                for t in 0..<taps { sums[t] = 0 }
                for n in 0..<g.batch {
                    let p = n * channels + c
                    let x = input + p * inPlane, gy = gradOutput + p * outPlane
                    if let padded {
                        padded.load(x)
                        Depthwise3x3.accumulateWeightGradient(
                            padded, gradOutput: gy, outHeight: g.outHeight, outWidth: g.outWidth,
                            stride: g.strideHeight, into: &sums)
                    } else {
                        genericAccumulateWeightGradient(g, plane: x, gradOutput: gy, into: &sums)
                    }
                }
                for t in 0..<taps { gradWeight[c * taps + t] = Float(sums[t]) }
            }
        }
    }

    /// Both gradients of a 3×3 depthwise layer (pad 1, stride 1 or 2) in one pass: each
    /// channel's planes are visited once, image by image, and the output-gradient plane, read
    /// for the input gradient, is still in cache when the weight gradient reads it (apart, each
    /// reads it from memory). One channel per task, images in order: the same bits as
    /// `backwardInput` followed by `backwardWeight`, for any thread count.
    static func backward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>, gradWeight: UnsafeMutablePointer<Float>
    ) {
        precondition(g.isDepthwise3x3, "the fused depthwise backward takes 3×3, pad 1, stride 1 or 2")
        let channels = g.inChannels
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        Parallel.forEachChunk(channels) { channelRange, _ in
            var planes = PlaneBackward(g)
            defer { planes.free() }
            for c in channelRange {
                planes.startChannel(weight: weight + c * 9)
                for n in 0..<g.batch {
                    let p = n * channels + c
                    planes.add(input: input + p * inPlane, gradOutput: gradOutput + p * outPlane, gradInput: gradInput + p * inPlane)
                }
                planes.finishChannel(gradWeight: gradWeight + c * 9)
            }
        }
    }

    /// One worker's buffers for `backward`, one channel at a time: `add` each image's planes in
    /// image order between `startChannel` and `finishChannel` (which writes the filter's gradient).
    struct PlaneBackward {
        let g: Conv2dGeometry
        let paddedInput: Depthwise3x3.PaddedPlane
        let paddedGradient: Depthwise3x3.PaddedPlane?
        let gradientRows: Depthwise3x3.GradientRows?
        var sums = [Double](repeating: 0, count: 9)
        var filter = Filter3x3.zero, rotated = Filter3x3.zero

        init(_ g: Conv2dGeometry) {
            self.g = g
            let stride1 = g.strideHeight == 1
            paddedInput = Depthwise3x3.PaddedPlane(height: g.inHeight, width: g.inWidth)
            paddedGradient = stride1 ? Depthwise3x3.PaddedPlane(height: g.outHeight, width: g.outWidth) : nil
            gradientRows = stride1 ? nil : Depthwise3x3.GradientRows(outHeight: g.outHeight, outWidth: g.outWidth)
        }

        func free() {
            paddedInput.free()
            paddedGradient?.free()
            gradientRows?.free()
        }

        mutating func startChannel(weight w: UnsafePointer<Float>) {
            for t in 0..<9 { sums[t] = 0 }
            filter = Filter3x3(w)
            rotated = Filter3x3(w, rotated: true)
        }

        /// The input gradient of one image's plane into `gradInput`, and its share of the filter's gradient.
        @inline(__always)
        mutating func add(input x: UnsafePointer<Float>, gradOutput gy: UnsafePointer<Float>, gradInput gx: UnsafeMutablePointer<Float>) {
            addInputGradient(gradOutput: gy, gradInput: gx)
            paddedInput.load(x)
            Depthwise3x3.accumulateWeightGradient(
                paddedInput, gradOutput: gy, outHeight: g.outHeight, outWidth: g.outWidth, stride: g.strideHeight, into: &sums)
        }

        /// `add` for the input `act(x · scale + shift)`, normalised straight into the bordered buffer.
        @inline(__always)
        mutating func add(normalizing x: UnsafePointer<Float>, scale: Float, shift: Float, activation: ActivationKind?,
                          gradOutput gy: UnsafePointer<Float>, gradInput gx: UnsafeMutablePointer<Float>) {
            addInputGradient(gradOutput: gy, gradInput: gx)
            paddedInput.loadNormalized(x, scale: scale, shift: shift, activation: activation)
            Depthwise3x3.accumulateWeightGradient(
                paddedInput, gradOutput: gy, outHeight: g.outHeight, outWidth: g.outWidth, stride: g.strideHeight, into: &sums)
        }

        /// One image plane's input gradient into `gx`.
        @inline(__always)
        private func addInputGradient(gradOutput gy: UnsafePointer<Float>, gradInput gx: UnsafeMutablePointer<Float>) {
            if let paddedGradient {
                paddedGradient.load(gy)
                Depthwise3x3.forwardStride1(paddedGradient, rotated, bias: 0, output: gx)
            } else if let gradientRows {
                Depthwise3x3.backwardInputStride2(
                    gradOutput: gy, outHeight: g.outHeight, outWidth: g.outWidth, filter, rows: gradientRows,
                    gradInput: gx, height: g.inHeight, width: g.inWidth)
            }
        }

        func finishChannel(gradWeight: UnsafeMutablePointer<Float>) {
            for t in 0..<9 { gradWeight[t] = Float(sums[t]) }
        }
    }

    // MARK: Generic direct loops (any kernel size, stride and padding)

    static func genericForward(
        _ g: Conv2dGeometry, plane: UnsafePointer<Float>, weight: UnsafePointer<Float>, bias: Float,
        output: UnsafeMutablePointer<Float>
    ) {
        for oy in 0..<g.outHeight {
            for ox in 0..<g.outWidth {
                var sum = bias
                for ky in 0..<g.kernelHeight {
                    let iy = oy * g.strideHeight - g.padHeight + ky
                    if iy < 0 || iy >= g.inHeight { continue }
                    for kx in 0..<g.kernelWidth {
                        let ix = ox * g.strideWidth - g.padWidth + kx
                        if ix < 0 || ix >= g.inWidth { continue }
                        sum += weight[ky * g.kernelWidth + kx] * plane[iy * g.inWidth + ix]
                    }
                }
                output[oy * g.outWidth + ox] = sum
            }
        }
    }

    static func genericBackwardInput(
        _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>
    ) {
        gradInput.update(repeating: 0, count: g.inHeight * g.inWidth)
        for oy in 0..<g.outHeight {
            for ox in 0..<g.outWidth {
                let gy = gradOutput[oy * g.outWidth + ox]
                for ky in 0..<g.kernelHeight {
                    let iy = oy * g.strideHeight - g.padHeight + ky
                    if iy < 0 || iy >= g.inHeight { continue }
                    for kx in 0..<g.kernelWidth {
                        let ix = ox * g.strideWidth - g.padWidth + kx
                        if ix < 0 || ix >= g.inWidth { continue }
                        gradInput[iy * g.inWidth + ix] += weight[ky * g.kernelWidth + kx] * gy
                    }
                }
            }
        }
    }

    static func genericAccumulateWeightGradient(
        _ g: Conv2dGeometry, plane: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
        into sums: inout [Double]
    ) {
        for ky in 0..<g.kernelHeight {
            for kx in 0..<g.kernelWidth {
                var sum: Float = 0
                for oy in 0..<g.outHeight {
                    let iy = oy * g.strideHeight - g.padHeight + ky
                    if iy < 0 || iy >= g.inHeight { continue }
                    for ox in 0..<g.outWidth {
                        let ix = ox * g.strideWidth - g.padWidth + kx
                        if ix < 0 || ix >= g.inWidth { continue }
                        sum += gradOutput[oy * g.outWidth + ox] * plane[iy * g.inWidth + ix]
                    }
                }
                sums[ky * g.kernelWidth + kx] += Double(sum)
            }
        }
    }
}
