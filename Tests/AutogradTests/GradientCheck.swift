import Autograd
import Support
import Tensor
import XCTest

/// Finite-difference gradient checks against a float64 reference.
///
/// The engine computes in float32; the reference forward is written independently in
/// Double. We check (1) the engine's forward against the reference, and (2) the engine's
/// analytic gradient of L = Σ R ⊙ f(x) (R random) against central differences of the
/// *reference* in Double, where h can be tiny without float32 round-off swamping it.
struct GradientCheck {
    var seed: UInt64 = 1
    var step = 1e-6
    var relativeTolerance = 2e-3
    var absoluteTolerance = 2e-3
    /// Elements checked per input (sampled evenly) to keep big inputs fast.
    var maximumElementsPerInput = 120
    /// Ranges to draw inputs from, per input (default ±1).
    var inputRanges: [ClosedRange<Double>] = []
    /// Prefixed to failure messages (the random draw a case came from).
    var context = ""

    func run(shapes: [[Int]], file: StaticString = #filePath, line: UInt = #line,
             engine: (Tape, [Variable]) throws -> Variable,
             reference: ([[Double]]) -> [Double]) throws {
        var rng = SeededRandom(seed: seed)
        let inputs = draw(shapes, &rng)
        let tape = Tape()
        let leaves = try zip(shapes, inputs).map { shape, values in tape.leaf(try Tensor(shape: shape, values: values.map { Float($0) })) }
        let output = try engine(tape, leaves)
        let expected = reference(inputs)
        XCTAssertEqual(output.value.count, expected.count, "\(context)output size", file: file, line: line)
        let scale = max(1, expected.map(abs).max() ?? 1)
        for (i, (a, b)) in zip(output.value.values, expected).enumerated() where abs(Double(a) - b) > 1e-4 * scale + 1e-4 * abs(b) {
            XCTFail("\(context)forward element \(i): engine \(a) vs float64 reference \(b)", file: file, line: line)
            return
        }
        let upstream = (0..<expected.count).map { _ in Double(Float(rng.uniform(-1, 1))) }
        let gradients = try tape.backward(output, seed: Tensor(shape: output.shape, values: upstream.map { Float($0) }))
        func loss(_ xs: [[Double]]) -> Double { zip(reference(xs), upstream).reduce(0) { $0 + $1.0 * $1.1 } }
        for (i, leaf) in leaves.enumerated() {
            guard let analytic = gradients[leaf] else {
                XCTFail("\(context)input \(i) received no gradient", file: file, line: line)
                continue
            }
            let n = inputs[i].count
            let stride = max(1, n / maximumElementsPerInput)
            for j in Swift.stride(from: 0, to: n, by: stride) {
                var plus = inputs, minus = inputs
                plus[i][j] += step
                minus[i][j] -= step
                let numeric = (loss(plus) - loss(minus)) / (2 * step)
                let got = Double(analytic[flat: j])
                if abs(got - numeric) > absoluteTolerance + relativeTolerance * abs(numeric) {
                    XCTFail("\(context)d/d input\(i)[\(j)]: engine \(got) vs finite difference \(numeric) (shape \(shapes[i]))", file: file, line: line)
                    return
                }
            }
        }
    }
}

extension GradientCheck {
    /// The inputs `run` draws for these shapes: a reference that treats part of its formula as a
    /// constant (a detached weight) computes that part from these, not from the perturbed inputs.
    func inputs(for shapes: [[Int]]) -> [[Double]] {
        var rng = SeededRandom(seed: seed)
        return draw(shapes, &rng)
    }

    fileprivate func draw(_ shapes: [[Int]], _ rng: inout SeededRandom) -> [[Double]] {
        shapes.enumerated().map { i, shape in
            let range = i < inputRanges.count ? inputRanges[i] : -1.0...1.0
            // Round through Float so engine and reference see identical values.
            return (0..<Tensor.elementCount(shape)).map { _ in Double(Float(rng.uniform(range.lowerBound, range.upperBound))) }
        }
    }
}

/// Row-major index helpers for the reference implementations.
func flatIndex(_ index: [Int], _ shape: [Int]) -> Int {
    var flat = 0
    for (i, s) in zip(index, shape) { flat = flat * s + i }
    return flat
}

func unflatten(_ flat: Int, _ shape: [Int]) -> [Int] {
    var rest = flat
    var index = [Int](repeating: 0, count: shape.count)
    for d in stride(from: shape.count - 1, through: 0, by: -1) { index[d] = rest % shape[d]; rest /= shape[d] }
    return index
}

func broadcastReference(_ a: [Double], _ sa: [Int], _ b: [Double], _ sb: [Int], _ f: (Double, Double) -> Double) -> [Double] {
    let rank = max(sa.count, sb.count)
    let pa = [Int](repeating: 1, count: rank - sa.count) + sa, pb = [Int](repeating: 1, count: rank - sb.count) + sb
    let out = zip(pa, pb).map { max($0, $1) }
    return (0..<out.reduce(1, *)).map { k in
        let idx = unflatten(k, out)
        let ia = zip(idx, pa).map { $1 == 1 ? 0 : $0 }, ib = zip(idx, pb).map { $1 == 1 ? 0 : $0 }
        return f(a[flatIndex(ia, pa)], b[flatIndex(ib, pb)])
    }
}
