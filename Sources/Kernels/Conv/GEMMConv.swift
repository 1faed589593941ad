/// Convolution as GEMM: 1×1 convolutions multiply the weight directly with the image's
/// [C × H·W] matrix; other kernels first unfold the input with im2col.
enum GEMMConv {
    /// Splits images across workers when there are enough of them; otherwise runs them in
    /// order on the caller so that each GEMM can split itself instead.
    static func imageWorkers(_ batch: Int) -> Int {
        batch >= Parallel.threadCount ? Parallel.workerCount(for: batch) : 1
    }

    static func forEachImageChunk(_ batch: Int, workers: Int? = nil, _ body: (Range<Int>, Int) -> Void) {
        let workers = workers ?? imageWorkers(batch)
        if workers > 1 {
            Parallel.forEachChunk(batch, workers: workers, body)
        } else {
            body(0..<batch, 0)
        }
    }

    /// `Conv2dKernel.withDenseKernels(_:)`.
    @TaskLocal static var denseKernels = Conv2dKernel.DenseKernels.openblas
    static var usesPackedKernels: Bool { denseKernels != .openblas }
    static var usesWinograd: Bool { denseKernels == .winograd || denseKernels == .winogradWeights }

    static func forward(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>
    ) {
        if usesWinograd && Winograd3x3.isSupported(g) {
            Winograd3x3.forward(g, input: input, weight: weight, bias: bias, output: output)
            return
        }
        if usesPackedKernels && PackedConv2d.isSupported(g) {
            PackedConv2d.forward(g, input: input, weight: weight, bias: bias, output: output)
            return
        }
        let unfold = Im2col(g)
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let cinG = g.inChannelsPerGroup, coutG = g.outChannelsPerGroup
        let depth = unfold.rows
        forEachImageChunk(g.batch) { images, _ in
            let col = unfold.isIdentity ? nil : Workspace(count: depth * outPlane)
            defer { col?.free() }
            for n in images {
                let out = output + n * g.outChannels * outPlane
                if let bias {
                    for c in 0..<g.outChannels { (out + c * outPlane).update(repeating: bias[c], count: outPlane) }
                }
                for group in 0..<g.groups {
                    let x = input + (n * g.inChannels + group * cinG) * inPlane
                    let b: UnsafePointer<Float>
                    if let col {
                        unfold.unfold(x, into: col.pointer)
                        b = UnsafePointer(col.pointer)
                    } else {
                        b = x
                    }
                    GEMM.multiply(
                        transposeA: false, transposeB: false, m: coutG, n: outPlane, k: depth,
                        a: weight + group * coutG * depth, lda: depth, b: b, ldb: outPlane,
                        beta: bias == nil ? 0 : 1, c: out + group * coutG * outPlane, ldc: outPlane)
                }
            }
        }
    }

    static func backwardInput(
        _ g: Conv2dGeometry, gradOutput: UnsafePointer<Float>, weight: UnsafePointer<Float>,
        gradInput: UnsafeMutablePointer<Float>
    ) {
        if usesWinograd && Winograd3x3.isSupported(g) {
            Winograd3x3.backwardInput(g, gradOutput: gradOutput, weight: weight, gradInput: gradInput)
            return
        }
        if usesPackedKernels && PackedConv2d.supportsBackwardInput(g) {
            PackedConv2d.backwardInput(g, gradOutput: gradOutput, weight: weight, gradInput: gradInput)
            return
        }
        let unfold = Im2col(g)
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let cinG = g.inChannelsPerGroup, coutG = g.outChannelsPerGroup
        let depth = unfold.rows
        forEachImageChunk(g.batch) { images, _ in
            let col = unfold.isIdentity ? nil : Workspace(count: depth * outPlane)
            defer { col?.free() }
            for n in images {
                for group in 0..<g.groups {
                    let gx = gradInput + (n * g.inChannels + group * cinG) * inPlane
                    let gy = gradOutput + (n * g.outChannels + group * coutG) * outPlane
                    GEMM.multiply(
                        transposeA: true, transposeB: false, m: depth, n: outPlane, k: coutG,
                        a: weight + group * coutG * depth, lda: depth, b: gy, ldb: outPlane,
                        c: col?.pointer ?? gx, ldc: outPlane)
                    if let col { unfold.fold(col.pointer, into: gx) }
                }
            }
        }
    }

    static func backwardWeight(
        _ g: Conv2dGeometry, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
        gradWeight: UnsafeMutablePointer<Float>
    ) {
        if denseKernels == .winogradWeights && WinogradWeightGradient.isSupported(g) {
            WinogradWeightGradient.compute(g, input: input, gradOutput: gradOutput, gradWeight: gradWeight)
            return
        }
        if usesPackedKernels && DirectWeightGradient.isSupported(g) && (g.isPointwise || usesWinograd) {
            DirectWeightGradient.compute(g, input: input, gradOutput: gradOutput, gradWeight: gradWeight)
            return
        }
        let unfold = Im2col(g)
        let inPlane = g.inHeight * g.inWidth, outPlane = g.outHeight * g.outWidth
        let cinG = g.inChannelsPerGroup, coutG = g.outChannelsPerGroup
        let depth = unfold.rows
        let workers = imageWorkers(g.batch)
        // Worker 0 accumulates straight into gradWeight; the others into their own partials.
        let partials = Workspace(count: (workers - 1) * g.weightCount)
        defer { partials.free() }
        forEachImageChunk(g.batch, workers: workers) { images, worker in
            let gw = worker == 0 ? gradWeight : partials.pointer + (worker - 1) * g.weightCount
            let col = unfold.isIdentity ? nil : Workspace(count: depth * outPlane)
            defer { col?.free() }
            for n in images {
                for group in 0..<g.groups {
                    let x = input + (n * g.inChannels + group * cinG) * inPlane
                    let gy = gradOutput + (n * g.outChannels + group * coutG) * outPlane
                    let b: UnsafePointer<Float>
                    if let col {
                        unfold.unfold(x, into: col.pointer)
                        b = UnsafePointer(col.pointer)
                    } else {
                        b = x
                    }
                    GEMM.multiply(
                        transposeA: false, transposeB: true, m: coutG, n: depth, k: outPlane,
                        a: gy, lda: outPlane, b: b, ldb: outPlane,
                        beta: n == images.lowerBound ? 0 : 1, c: gw + group * coutG * depth, ldc: depth)
                }
            }
        }
        Vector.addInOrder(partials.pointer, partCount: workers - 1, count: g.weightCount, to: gradWeight)
    }
}
