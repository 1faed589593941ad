import Autograd
import NN
import Support
import Tensor
import XCTest

/// Direct tests of the layers the detector is built from.
final class LayerTests: XCTestCase {
    func testConvolutionArgumentsAreCheckedAtConstruction() {
        var rng = SeededRandom(seed: 1)
        let bad: [(String, () throws -> Conv2d)] = [
            ("groups 4", { try Conv2d(inputChannels: 6, outputChannels: 4, kernelSize: 3, groups: 4, rng: &rng) }),
            ("groups 0", { try Conv2d(inputChannels: 6, outputChannels: 4, kernelSize: 3, groups: 0, rng: &rng) }),
            ("kernelSize 0", { try Conv2d(inputChannels: 3, outputChannels: 4, kernelSize: 0, rng: &rng) }),
            ("stride -1", { try Conv2d(inputChannels: 3, outputChannels: 4, kernelSize: 3, stride: -1, rng: &rng) }),
            ("padding -2", { try Conv2d(inputChannels: 3, outputChannels: 4, kernelSize: 3, padding: -2, rng: &rng) }),
            ("outputChannels 0", { try Conv2d(inputChannels: 3, outputChannels: 0, kernelSize: 1, rng: &rng) }),
        ]
        for (value, make) in bad {
            XCTAssertThrowsError(try make()) { XCTAssertTrue("\($0)".contains("Conv2d") && "\($0)".contains(value), "\($0)") }
        }
        XCTAssertThrowsError(try DepthwiseConv2d(channels: 0, rng: &rng)) { XCTAssertTrue("\($0)".contains("Conv2d"), "\($0)") }
        XCTAssertThrowsError(try Linear(inputFeatures: 0, outputFeatures: 2, rng: &rng)) { XCTAssertTrue("\($0)".contains("Linear"), "\($0)") }
        XCTAssertThrowsError(try BatchNorm2d(channels: -3)) { XCTAssertTrue("\($0)".contains("BatchNorm2d") && "\($0)".contains("-3"), "\($0)") }
    }

    /// One 3×3 filter per channel, named like a PyTorch grouped Conv2d, and the same values
    /// as a hand-computed depthwise correlation; gradients reach the filters.
    func testDepthwiseConv2dIsOneFilterPerChannel() throws {
        var rng = SeededRandom(seed: 2)
        let layer = try DepthwiseConv2d(channels: 2, stride: 2, rng: &rng)
        XCTAssertEqual(layer.namedParameters().map(\.name), ["weight"])
        XCTAssertEqual(layer.weight.shape, [2, 1, 3, 3])
        XCTAssertEqual(layer.profileLabel, "depthwise 3×3 s2")
        let input = try Tensor(shape: [1, 2, 3, 3], values: (0..<18).map { Float($0) })
        let tape = Tape()
        let y = try layer(tape.constant(input))
        XCTAssertEqual(y.shape, [1, 2, 2, 2])
        // Output (0, 0) of channel c sees input rows/columns 0…1 under taps (1…2, 1…2) (pad 1, stride 2).
        let w = layer.weight.value
        for c in 0..<2 {
            let x = { (row: Int, column: Int) in input[flat: c * 9 + row * 3 + column] }
            let tap = { (row: Int, column: Int) in w[flat: c * 9 + row * 3 + column] }
            let expected = tap(1, 1) * x(0, 0) + tap(1, 2) * x(0, 1) + tap(2, 1) * x(1, 0) + tap(2, 2) * x(1, 1)
            XCTAssertEqual(y.value[flat: c * 4], expected, accuracy: 1e-4, "channel \(c)")
        }
        try tape.backward(try y.sum())
        // d Σy / d w[c, 1, 1] = Σ of the inputs under the centre tap: x(0,0) + x(0,2) + x(2,0) + x(2,2).
        for c in 0..<2 {
            let centre = [0, 2, 6, 8].map { Float(c * 9 + $0) }.reduce(0, +)
            XCTAssertEqual(layer.weight.gradient?[flat: c * 9 + 4] ?? .nan, centre, accuracy: 1e-4)
        }
    }

    /// Layers run in order, their parameters are named "0.weight", "1.bias", …, and the
    /// result equals calling the layers one by one.
    func testSequentialRunsInOrderWithPyTorchNames() throws {
        var rng = SeededRandom(seed: 3)
        let first = try Linear(inputFeatures: 3, outputFeatures: 4, rng: &rng)
        let second = try Linear(inputFeatures: 4, outputFeatures: 2, rng: &rng)
        let model = Sequential([first, ActivationLayer(.relu), second])
        XCTAssertEqual(model.namedParameters().map(\.name), ["0.weight", "0.bias", "2.weight", "2.bias"])
        let x = try Tensor(shape: [2, 3], values: [1, -2, 0.5, 0.3, 0.7, -1])
        let tape = Tape.noGradient()
        let chained = try model(tape.constant(x)).value.values
        let byHand = try second(first(tape.constant(x)).relu()).value.values
        XCTAssertEqual(chained, byHand)
        XCTAssertThrowsError(try Sequential([second, first])(tape.constant(x))) { XCTAssertTrue("\($0)".contains("linear"), "\($0)") }
    }
}
