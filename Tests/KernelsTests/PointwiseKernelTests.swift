import XCTest
@testable import Kernels

final class PointwiseKernelTests: XCTestCase {
    func activation(_ kind: ActivationKind, _ x: [Float], gradOutput: Float = 1) -> (y: [Float], gx: [Float]) {
        var x = x, y = [Float](repeating: 0, count: x.count), gx = y
        var g = [Float](repeating: gradOutput, count: x.count)
        let count = x.count
        x.withPointer { xp in y.withPointer { yp in g.withPointer { gp in gx.withPointer { gxp in
            Activation.forward(kind, input: xp, output: yp, count: count)
            Activation.backward(kind, input: xp, output: yp, gradOutput: gp, gradInput: gxp, count: count)
        } } } }
        return (y, gx)
    }

    func testReLU6BoundariesAndTails() {
        // 11 values: one full vector and a scalar tail.
        let x: [Float] = [-1, 0, 0.5, 6, 7, 3, -0.0, 5.999, 6.001, 2, 0]
        let (y, gx) = activation(.relu6, x)
        XCTAssertEqual(y, [0, 0, 0.5, 6, 6, 3, 0, 5.999, 6, 2, 0])
        // PyTorch's hardtanh gradient is zero at exactly 0 and 6.
        XCTAssertEqual(gx, [0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0])
    }

    func testReLU() {
        let (y, gx) = activation(.relu, [-2, 0, 3, 1e30, -1e-30, 4, 5, 6, 7])
        XCTAssertEqual(y, [0, 0, 3, 1e30, 0, 4, 5, 6, 7])
        XCTAssertEqual(gx, [0, 0, 1, 1, 0, 1, 1, 1, 1])
    }

    func testSigmoidAndSiLUAgainstDoubleFormulas() {
        let x: [Float] = [-100, -5, -1, 0, 0.5, 2, 30, 100]
        let (s, gs) = activation(.sigmoid, x, gradOutput: 2)
        let (u, gu) = activation(.silu, x, gradOutput: 2)
        for i in 0..<x.count {
            let v = Double(x[i]), sig = 1 / (1 + Foundation.exp(-v))
            XCTAssertEqual(Double(s[i]), sig, accuracy: 1e-6)
            XCTAssertEqual(Double(gs[i]), 2 * sig * (1 - sig), accuracy: 1e-6)
            XCTAssertEqual(Double(u[i]), v * sig, accuracy: 1e-6 * max(1, abs(v)))
            XCTAssertEqual(Double(gu[i]), 2 * sig * (1 + v * (1 - sig)), accuracy: 1e-5)
        }
    }

    func testInPlaceLargeParallelForward() {
        var random = TestRandom(seed: 8)
        var x = random.floats(100_003, scale: 8)
        let expected = x.map { min(max($0, 0), 6) }
        let count = x.count
        withThreads(2) { x.withPointer { Activation.forward(.relu6, input: $0, output: $0, count: count) } }
        XCTAssertEqual(x, expected)
    }

    func testUpsampleRoundTrip() {
        // 2 planes of 3×9 (width past one vector).
        let planes = 2, h = 3, w = 9
        var input = (0..<(planes * h * w)).map { Float($0) }
        var output = [Float](repeating: 0, count: 4 * input.count), back = [Float](repeating: 0, count: input.count)
        input.withPointer { i in output.withPointer { o in back.withPointer { b in
            Upsample.nearest2x(input: i, planes: planes, height: h, width: w, output: o)
            Upsample.nearest2xBackward(gradOutput: o, planes: planes, height: h, width: w, gradInput: b)
        } } }
        for p in 0..<planes {
            for y in 0..<(2 * h) {
                for x in 0..<(2 * w) {
                    XCTAssertEqual(output[(p * 2 * h + y) * 2 * w + x], input[(p * h + y / 2) * w + x / 2])
                }
            }
        }
        // Each input received the gradient of its 4 copies.
        XCTAssertEqual(back, input.map { 4 * $0 })
    }

    func testMaxPoolWithTiesAndPadding() throws {
        // 4×4 plane, kernel 2 stride 2: the first maximum (row-major) wins ties.
        var input: [Float] = [
            1, 3, 2, 2,
            3, 0, 2, 1,
            -1, -2, 5, 4,
            -3, -1, 4, 5,
        ]
        var output = [Float](repeating: 0, count: 4), argmax = [Int32](repeating: -1, count: 4)
        var grad: [Float] = [1, 2, 3, 4], gradInput = [Float](repeating: 9, count: 16)
        try input.withPointer { i in try output.withPointer { o in try argmax.withUnsafeMutableBufferPointer { a in
            try MaxPool.forward(input: i, planes: 1, height: 4, width: 4, kernel: 2, stride: 2, padding: 0, output: o, argmax: a.baseAddress!)
            grad.withPointer { g in gradInput.withPointer { gi in
                MaxPool.backward(gradOutput: g, argmax: a.baseAddress!, planes: 1, inputSpatial: 16, outputSpatial: 4, gradInput: gi)
            } }
        } } }
        XCTAssertEqual(output, [3, 2, -1, 5])
        XCTAssertEqual(argmax, [1, 2, 8, 10])
        XCTAssertEqual(gradInput, [0, 1, 2, 0, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 0, 0])

        // Kernel 3, stride 2, padding 1 (the ResNet stem pool): padding never wins.
        XCTAssertEqual(try MaxPool.outputSize(4, kernel: 3, stride: 2, padding: 1), 2)
        var out2 = [Float](repeating: 0, count: 4), arg2 = [Int32](repeating: 0, count: 4)
        try input.withPointer { i in try out2.withPointer { o in try arg2.withUnsafeMutableBufferPointer { a in
            try MaxPool.forward(input: i, planes: 1, height: 4, width: 4, kernel: 3, stride: 2, padding: 1, output: o, argmax: a.baseAddress!)
        } } }
        XCTAssertEqual(out2, [3, 3, 3, 5])
        XCTAssertEqual(arg2, [1, 1, 4, 10])
        XCTAssertThrowsError(try MaxPool.outputSize(4, kernel: 2, stride: 2, padding: 2))
    }

    func testSGDTwoStepsHandComputed() {
        func run(nesterov: Bool, dampening: Float) -> Float {
            var p: [Float] = [1], v: [Float] = [0]
            for (step, g) in [Float(0.5), 0.25].enumerated() {
                var grad = [g]
                p.withPointer { pp in v.withPointer { vp in grad.withPointer { gp in
                    OptimizerKernels.sgd(
                        parameters: pp, gradients: gp, velocity: vp, count: 1, learningRate: 0.1, momentum: 0.9,
                        dampening: dampening, weightDecay: 0.1, nesterov: nesterov, firstStep: step == 0)
                } } }
            }
            return p[0]
        }
        // Step 1: d = 0.5 + 0.1·1 = 0.6, buf = 0.6, p = 0.94.
        // Step 2: d = 0.25 + 0.1·0.94 = 0.344, buf = 0.9·0.6 + 0.344 = 0.884, p = 0.94 − 0.0884.
        XCTAssertEqual(run(nesterov: false, dampening: 0), 0.8516, accuracy: 1e-6)
        // Nesterov: p1 = 1 − 0.1·(0.6 + 0.54) = 0.886; d2 = 0.3386, buf = 0.8786, p2 = 0.886 − 0.1·(0.3386 + 0.79074).
        XCTAssertEqual(run(nesterov: true, dampening: 0), 0.773066, accuracy: 1e-6)
        // Dampening 0.5 leaves the first buffer undamped: buf2 = 0.54 + 0.5·0.344 = 0.712.
        XCTAssertEqual(run(nesterov: false, dampening: 0.5), 0.8688, accuracy: 1e-6)
    }

    func testAdamWTwoStepsHandComputed() {
        var p: [Float] = [1], m: [Float] = [0], v: [Float] = [0]
        let expected: [(Float, Float, Float)] = [(0.899000002, 0.05, 0.00025), (0.8048830405, 0.07, 0.00031225)]
        for (step, g) in [Float(0.5), 0.25].enumerated() {
            var grad = [g]
            p.withPointer { pp in m.withPointer { mp in v.withPointer { vp in grad.withPointer { gp in
                OptimizerKernels.adamW(
                    parameters: pp, gradients: gp, firstMoment: mp, secondMoment: vp, count: 1, learningRate: 0.1,
                    beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0.01, step: step + 1)
            } } } }
            XCTAssertEqual(p[0], expected[step].0, accuracy: 1e-6)
            XCTAssertEqual(m[0], expected[step].1, accuracy: 1e-7)
            // 1 − β2 rounds to 0.00099998713 in Float (PyTorch forms it from a Python double).
            XCTAssertEqual(v[0], expected[step].2, accuracy: expected[step].2 * 2e-5)
        }
    }

    func testEMAAndArrayHelpers() {
        var average: [Float] = [1, 2], current: [Float] = [3, 6]
        average.withPointer { a in current.withPointer { c in OptimizerKernels.emaUpdate(average: a, current: c, count: 2, decay: 0.75) } }
        XCTAssertEqual(average, [1.5, 3])
        var x = (1...10).map(Float.init)
        XCTAssertEqual(x.withPointer { OptimizerKernels.sumOfSquares($0, count: 10) }, 385)
        x.withPointer { OptimizerKernels.scale($0, count: 10, by: 0.5) }
        XCTAssertEqual(x[9], 5)
        XCTAssertFalse(x.withPointer { OptimizerKernels.hasNonFinite($0, count: 10) })
        for bad in [Float.nan, .infinity, -.infinity] {
            for position in [2, 9] {
                var y = x
                y[position] = bad
                XCTAssertTrue(y.withPointer { OptimizerKernels.hasNonFinite($0, count: 10) }, "\(bad) at \(position)")
            }
        }
    }
}
