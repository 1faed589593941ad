import XCTest
@testable import Kernels

final class BatchNormKernelTests: XCTestCase {
    let batch = 3, channels = 4, spatial = 13

    func index(_ n: Int, _ c: Int, _ s: Int) -> Int { (n * channels + c) * spatial + s }

    /// Double-precision training-mode batch norm followed by the scalar loss Σ y·weights.
    func loss(_ x: [Double], gamma: [Double], beta: [Double], weights: [Double]) -> Double {
        var total = 0.0
        let m = Double(batch * spatial)
        for c in 0..<channels {
            var mean = 0.0, variance = 0.0
            for n in 0..<batch { for s in 0..<spatial { mean += x[index(n, c, s)] } }
            mean /= m
            for n in 0..<batch { for s in 0..<spatial { variance += (x[index(n, c, s)] - mean) * (x[index(n, c, s)] - mean) } }
            variance /= m
            let invStd = 1 / (variance + 1e-5).squareRoot()
            for n in 0..<batch {
                for s in 0..<spatial {
                    let i = index(n, c, s)
                    total += ((x[i] - mean) * invStd * gamma[c] + beta[c]) * weights[i]
                }
            }
        }
        return total
    }

    func testStatisticsMatchReferenceWithLargeMean() {
        var random = TestRandom(seed: 3)
        // A large offset with a small spread is where a naive one-pass variance cancels.
        var x = random.floats(batch * channels * spatial, scale: 0.01, offset: 1000)
        var mean = [Float](repeating: 0, count: channels), variance = mean
        x.withPointer { p in mean.withPointer { m in variance.withPointer { v in
            BatchNormKernel.statistics(input: p, batch: batch, channels: channels, spatial: spatial, mean: m, variance: v)
        } } }
        for c in 0..<channels {
            let values = (0..<batch).flatMap { n in (0..<spatial).map { Double(x[index(n, c, $0)]) } }
            let mu = values.reduce(0, +) / Double(values.count)
            let sigma2 = values.map { ($0 - mu) * ($0 - mu) }.reduce(0, +) / Double(values.count)
            XCTAssertEqual(Double(mean[c]), mu, accuracy: 1e-4)
            XCTAssertEqual(Double(variance[c]), sigma2, accuracy: sigma2 * 1e-3)
        }
    }

    func testNormalizeAndBackwardAgainstFiniteDifferences() {
        var random = TestRandom(seed: 4)
        var x = random.floats(batch * channels * spatial, scale: 2, offset: 0.5)
        var gamma = random.floats(channels, offset: 1.2), beta = random.floats(channels)
        var weights = random.floats(x.count)
        var mean = [Float](repeating: 0, count: channels), variance = mean, invStd = mean
        var y = [Float](repeating: 0, count: x.count), gx = y
        var gGamma = [Float](repeating: 0, count: channels), gBeta = gGamma
        x.withPointer { xp in mean.withPointer { m in variance.withPointer { v in invStd.withPointer { s in
            gamma.withPointer { gp in beta.withPointer { bp in y.withPointer { yp in weights.withPointer { wp in
                gx.withPointer { gxp in gGamma.withPointer { ggp in gBeta.withPointer { gbp in
                    BatchNormKernel.statistics(input: xp, batch: batch, channels: channels, spatial: spatial, mean: m, variance: v)
                    for c in 0..<channels { s[c] = 1 / (v[c] + 1e-5).squareRoot() }
                    BatchNormKernel.normalize(
                        input: xp, batch: batch, channels: channels, spatial: spatial, mean: m, invStd: s,
                        gamma: gp, beta: bp, output: yp)
                    // dL/dy = weights for L = Σ y·weights.
                    BatchNormKernel.backward(
                        gradOutput: wp, input: xp, batch: batch, channels: channels, spatial: spatial, mean: m, invStd: s,
                        gamma: gp, beta: bp, gradInput: gxp, gradGamma: ggp, gradBeta: gbp)
                } } }
            } } } }
        } } } }
        let xd = x.map(Double.init), gd = gamma.map(Double.init), bd = beta.map(Double.init), wd = weights.map(Double.init)
        // Forward: Σ y·w equals the double reference loss.
        XCTAssertEqual(zip(y, weights).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }, loss(xd, gamma: gd, beta: bd, weights: wd), accuracy: 1e-3)
        let h = 1e-4
        for i in stride(from: 0, to: x.count, by: 7) {
            var plus = xd, minus = xd
            plus[i] += h
            minus[i] -= h
            let numeric = (loss(plus, gamma: gd, beta: bd, weights: wd) - loss(minus, gamma: gd, beta: bd, weights: wd)) / (2 * h)
            XCTAssertEqual(Double(gx[i]), numeric, accuracy: 2e-3 * max(1, abs(numeric)), "dL/dx[\(i)]")
        }
        for c in 0..<channels {
            var plus = gd, minus = gd
            plus[c] += h
            minus[c] -= h
            let numericGamma = (loss(xd, gamma: plus, beta: bd, weights: wd) - loss(xd, gamma: minus, beta: bd, weights: wd)) / (2 * h)
            XCTAssertEqual(Double(gGamma[c]), numericGamma, accuracy: 1e-3 * max(1, abs(numericGamma)), "dL/dgamma[\(c)]")
            var bPlus = bd, bMinus = bd
            bPlus[c] += h
            bMinus[c] -= h
            let numericBeta = (loss(xd, gamma: gd, beta: bPlus, weights: wd) - loss(xd, gamma: gd, beta: bMinus, weights: wd)) / (2 * h)
            XCTAssertEqual(Double(gBeta[c]), numericBeta, accuracy: 1e-3 * max(1, abs(numericBeta)), "dL/dbeta[\(c)]")
        }
    }

    func testAffineForwardAndBackward() {
        var random = TestRandom(seed: 5)
        var x = random.floats(batch * channels * spatial), g = random.floats(x.count)
        var scale = random.floats(channels), shift = random.floats(channels)
        var y = [Float](repeating: 0, count: x.count), gx = y
        var gScale = [Float](repeating: 0, count: channels), gShift = gScale
        x.withPointer { xp in g.withPointer { gp in scale.withPointer { sp in shift.withPointer { tp in
            y.withPointer { yp in gx.withPointer { gxp in gScale.withPointer { gsp in gShift.withPointer { gtp in
                BatchNormKernel.affine(input: xp, batch: batch, channels: channels, spatial: spatial, scale: sp, shift: tp, output: yp)
                BatchNormKernel.affineBackward(
                    gradOutput: gp, input: xp, batch: batch, channels: channels, spatial: spatial, scale: sp,
                    gradInput: gxp, gradScale: gsp, gradShift: gtp)
            } } } }
        } } } }
        for n in 0..<batch {
            for c in 0..<channels {
                for s in 0..<spatial {
                    let i = index(n, c, s)
                    XCTAssertEqual(y[i], x[i] * scale[c] + shift[c], accuracy: 1e-6)
                    XCTAssertEqual(gx[i], g[i] * scale[c], accuracy: 1e-6)
                }
            }
        }
        for c in 0..<channels {
            var sx = 0.0, sg = 0.0
            for n in 0..<batch { for s in 0..<spatial { sx += Double(g[index(n, c, s)] * x[index(n, c, s)]); sg += Double(g[index(n, c, s)]) } }
            XCTAssertEqual(Double(gScale[c]), sx, accuracy: 1e-5)
            XCTAssertEqual(Double(gShift[c]), sg, accuracy: 1e-5)
        }
    }

    func testChannelBiasAddAndSum() {
        var data = [Float](repeating: 1, count: 2 * 3 * 5)
        var bias: [Float] = [1, 2, 3]
        var sums = [Float](repeating: 0, count: 3)
        data.withPointer { d in bias.withPointer { b in sums.withPointer { s in
            BatchNormKernel.channelBiasAdd(d, batch: 2, channels: 3, spatial: 5, bias: b)
            BatchNormKernel.channelSum(d, batch: 2, channels: 3, spatial: 5, sum: s)
        } } }
        XCTAssertEqual(Array(data[5..<10]), [3, 3, 3, 3, 3])
        XCTAssertEqual(sums, [20, 30, 40])
    }

    func testThreadCountInvariance() {
        var random = TestRandom(seed: 6)
        var x = random.floats(2 * 64 * 300), g = random.floats(x.count)
        func run() -> [Float] {
            var mean = [Float](repeating: 0, count: 64), variance = mean, gx = [Float](repeating: 0, count: x.count)
            var gGamma = mean, gBeta = mean
            x.withPointer { xp in g.withPointer { gp in mean.withPointer { m in variance.withPointer { v in
                gx.withPointer { gxp in gGamma.withPointer { ggp in gBeta.withPointer { gbp in
                    BatchNormKernel.statistics(input: xp, batch: 2, channels: 64, spatial: 300, mean: m, variance: v)
                    BatchNormKernel.backward(
                        gradOutput: gp, input: xp, batch: 2, channels: 64, spatial: 300, mean: m, invStd: v, gamma: nil, beta: nil,
                        gradInput: gxp, gradGamma: ggp, gradBeta: gbp)
                } } }
            } } } }
            return mean + variance + gx + gGamma + gBeta
        }
        XCTAssertEqual(withThreads(1, run), withThreads(2, run))
    }
}

final class FusedBatchNormActivationTests: XCTestCase {
    /// Fused normalize+activation and masked backward equal the unfused sequence.
    func testFusedMatchesSeparateKernels() {
        let batch = 2, channels = 3, spatial = 37, count = batch * channels * spatial
        var random = TestRandom(seed: 11)
        let memory = Scratch()
        // Wide range so relu6 clips on both sides.
        let x = memory.copy(random.floats(count, scale: 3, offset: 1)), g = memory.copy(random.floats(count))
        let gamma = memory.copy(random.floats(channels, scale: 2, offset: 2)), beta = memory.copy(random.floats(channels, scale: 2))
        let m = memory.zeros(channels), v = memory.zeros(channels), s = memory.zeros(channels)
        BatchNormKernel.statistics(input: x, batch: batch, channels: channels, spatial: spatial, mean: m, variance: v)
        for c in 0..<channels { s[c] = 1 / (v[c] + 1e-5).squareRoot() }
        for kind in [ActivationKind.relu, .relu6] {
            let fused = memory.zeros(count), plain = memory.zeros(count), activated = memory.zeros(count), gAct = memory.zeros(count)
            let gxFused = memory.zeros(count), gxPlain = memory.zeros(count)
            let ggF = memory.zeros(channels), gbF = memory.zeros(channels), ggP = memory.zeros(channels), gbP = memory.zeros(channels)
            BatchNormKernel.normalize(input: x, batch: batch, channels: channels, spatial: spatial, mean: m, invStd: s,
                                      gamma: gamma, beta: beta, activation: kind, output: fused)
            BatchNormKernel.normalize(input: x, batch: batch, channels: channels, spatial: spatial, mean: m, invStd: s,
                                      gamma: gamma, beta: beta, output: plain)
            Activation.forward(kind, input: plain, output: activated, count: count)
            BatchNormKernel.backward(gradOutput: g, input: x, batch: batch, channels: channels, spatial: spatial,
                                     mean: m, invStd: s, gamma: gamma, beta: beta, activation: kind,
                                     gradInput: gxFused, gradGamma: ggF, gradBeta: gbF)
            Activation.backward(kind, input: plain, output: activated, gradOutput: g, gradInput: gAct, count: count)
            BatchNormKernel.backward(gradOutput: gAct, input: x, batch: batch, channels: channels, spatial: spatial,
                                     mean: m, invStd: s, gamma: gamma, beta: nil, gradInput: gxPlain, gradGamma: ggP, gradBeta: gbP)
            let fusedValues = memory.array(fused, count)
            XCTAssertEqual(fusedValues, memory.array(activated, count), "\(kind)")
            XCTAssertTrue(fusedValues.contains(0) && (kind == .relu || fusedValues.contains(6)), "test data must clip")
            assertClose(memory.array(gxFused, count), memory.array(gxPlain, count).map(Double.init), tolerance: 1e-6, "\(kind) gradInput")
            assertClose(memory.array(ggF, channels), memory.array(ggP, channels).map(Double.init), tolerance: 1e-6, "\(kind) gradGamma")
            assertClose(memory.array(gbF, channels), memory.array(gbP, channels).map(Double.init), tolerance: 1e-6, "\(kind) gradBeta")

            // Frozen (affine) path with scale = gamma, shift = beta.
            let affFused = memory.zeros(count), affPlain = memory.zeros(count), gxAffFused = memory.zeros(count), gxAffPlain = memory.zeros(count)
            let sgF = memory.zeros(channels), tgF = memory.zeros(channels), sgP = memory.zeros(channels), tgP = memory.zeros(channels)
            BatchNormKernel.affine(input: x, batch: batch, channels: channels, spatial: spatial, scale: gamma, shift: beta,
                                   activation: kind, output: affFused)
            BatchNormKernel.affine(input: x, batch: batch, channels: channels, spatial: spatial, scale: gamma, shift: beta, output: affPlain)
            Activation.forward(kind, input: affPlain, output: affPlain, count: count)
            BatchNormKernel.affineBackward(gradOutput: g, input: x, batch: batch, channels: channels, spatial: spatial,
                                           scale: gamma, activation: kind, activationOutput: affFused,
                                           gradInput: gxAffFused, gradScale: sgF, gradShift: tgF)
            Activation.backward(kind, input: nil, output: affPlain, gradOutput: g, gradInput: gAct, count: count)
            BatchNormKernel.affineBackward(gradOutput: gAct, input: x, batch: batch, channels: channels, spatial: spatial,
                                           scale: gamma, gradInput: gxAffPlain, gradScale: sgP, gradShift: tgP)
            XCTAssertEqual(memory.array(affFused, count), memory.array(affPlain, count), "\(kind) affine")
            XCTAssertEqual(memory.array(gxAffFused, count), memory.array(gxAffPlain, count), "\(kind) affine gradInput")
            assertClose(memory.array(sgF, channels), memory.array(sgP, channels).map(Double.init), tolerance: 1e-6, "\(kind) gradScale")
            assertClose(memory.array(tgF, channels), memory.array(tgP, channels).map(Double.init), tolerance: 1e-6, "\(kind) gradShift")
        }
    }

    /// The backward's mask from the recomputed pre-activation equals the mask read from the
    /// clamped output, also for values exactly on the clip points: sums and input gradient
    /// agree bit for bit.
    func testPreActivationMaskEqualsOutputMask() {
        // scale 0.5, shift −1: x = 2 → 0 and x = 14 → 6 exactly; 11 values exercise the scalar tail.
        let values: [Float] = [2, 14, -3, 1.999, 2.001, 13.999, 14.001, 7, -8, 20, 0.5, 3, 2, 14, 9, 6, 2.5, 1, 2]
        let memory = Scratch()
        let x = memory.copy(values), g = memory.copy(values.indices.map { Float($0 % 5) - 1.5 })
        let y = memory.zeros(values.count), fromOutput = memory.zeros(values.count), fromInput = memory.zeros(values.count)
        for (lower, upper) in [(Float(0), Float(6)), (0, .infinity)] {
            VectorSums.affineClamped(x, count: values.count, scale: 0.5, shift: -1, lower: lower, upper: upper, output: y)
            let maskedCount = (0..<values.count).filter { y[$0] > lower && y[$0] < upper }.count
            XCTAssertTrue(maskedCount > 0 && maskedCount < values.count - 4, "test data must clip on both sides")
            let expected = VectorSums.maskedSumAndDot(g, x, y, count: values.count, lower: lower, upper: upper)
            let actual = VectorSums.preActivationMaskedSumAndDot(
                g, x, count: values.count, scale: 0.5, shift: -1, lower: lower, upper: upper)
            XCTAssertEqual(actual.0, expected.0)
            XCTAssertEqual(actual.1, expected.1)
            VectorSums.combineMasked(g, x, y, count: values.count, lower: lower, upper: upper, a: 2, b: 0, c: 0.25, output: fromOutput)
            VectorSums.preActivationCombineMasked(
                g, x, count: values.count, scale: 0.5, shift: -1, lower: lower, upper: upper, a: 2, b: 0, c: 0.25,
                output: fromInput)
            XCTAssertEqual(memory.array(fromInput, values.count), memory.array(fromOutput, values.count), "upper \(upper)")
        }
    }

    /// The one-task-per-channel training forward gives exactly what statistics, invStd and
    /// normalize give as separate calls, for 1 and 2 threads.
    func testTrainingForwardEqualsSeparateCalls() {
        let batch = 3, channels = 5, spatial = 29, count = batch * channels * spatial, epsilon: Float = 1e-3
        var random = TestRandom(seed: 12)
        let memory = Scratch()
        let x = memory.copy(random.floats(count, scale: 3, offset: 1))
        let gamma = memory.copy(random.floats(channels, scale: 2, offset: 5)), beta = memory.copy(random.floats(channels, scale: 2, offset: 2))
        let m = memory.zeros(channels), v = memory.zeros(channels), s = memory.zeros(channels), y = memory.zeros(count)
        BatchNormKernel.statistics(input: x, batch: batch, channels: channels, spatial: spatial, mean: m, variance: v)
        for c in 0..<channels { s[c] = 1 / (v[c] + epsilon).squareRoot() }
        BatchNormKernel.normalize(input: x, batch: batch, channels: channels, spatial: spatial, mean: m, invStd: s,
                                  gamma: gamma, beta: beta, activation: .relu6, output: y)
        let expected = [m, v, s].flatMap { memory.array($0, channels) } + memory.array(y, count)
        XCTAssertTrue(memory.array(y, count).contains(6) && memory.array(y, count).contains(0), "test data must clip")
        for threads in [1, 2] {
            let fm = memory.zeros(channels), fv = memory.zeros(channels), fs = memory.zeros(channels), fy = memory.zeros(count)
            withThreads(threads) {
                BatchNormKernel.trainingForward(
                    input: x, batch: batch, channels: channels, spatial: spatial, epsilon: epsilon, gamma: gamma, beta: beta,
                    activation: .relu6, mean: fm, variance: fv, invStd: fs, output: fy)
            }
            XCTAssertEqual([fm, fv, fs].flatMap { memory.array($0, channels) } + memory.array(fy, count), expected, "threads \(threads)")
        }
    }
}
