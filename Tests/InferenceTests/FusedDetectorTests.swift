import Autograd
import Detection
import Kernels
import NN
import Support
import Tensor
import TestSupport
import XCTest
@testable import Inference

/// The fused inference model against the training graph in eval mode (`UIDetector` after
/// `eval()` on a no-gradient tape): both heads, stride 4 on and off, both dense kernels (packed
/// and OpenBLAS), batch 1 (the work split into panels or tiles across workers) and batch 3
/// (images across workers), on random weights with random batch-norm statistics — with
/// PyTorch's initial statistics (mean 0, var 1, γ 1, β 0) folding would be nearly the identity
/// and prove little.
final class FusedDetectorTests: XCTestCase {
    /// The default architecture (width 0.5, FPN 64, 16 bins) on a small input whose feature
    /// maps (48 … 3 wide) exercise the 8-lane loops' tails.
    func randomizedModel(head: UIDetectorConfiguration.HeadKind, stride4: Bool, seed: UInt64) throws -> UIDetector {
        let configuration = UIDetectorConfiguration(head: head, includeStride4: stride4, inputHeight: 128, inputWidth: 96)
        let model = try UIDetector(configuration: configuration, seed: seed)
        try RandomizedStatistics.apply(to: model, seed: seed + 100, headPrefixes: ["head.outputs"])
        return model
    }

    func images(batch: Int, height: Int, width: Int, seed: UInt64) -> Tensor {
        var random = SeededRandom(seed: seed)
        return Initialization.normal(shape: [batch, 3, height, width], standardDeviation: 1, rng: &random)
    }

    func testMatchesTheEvalModeGraphWithin1e4() throws {
        let saved = Parallel.threadCount
        Parallel.threadCount = 2
        defer { Parallel.threadCount = saved }
        for head in [UIDetectorConfiguration.HeadKind.anchorFree, .anchored] {
            for stride4 in [false, true] {
                let model = try randomizedModel(head: head, stride4: stride4, seed: 5)
                let detectors = try FusedDetector.DenseKernel.allCases.map { try FusedDetector(model, denseKernel: $0) }
                for batch in [1, 3] {
                    let input = images(batch: batch, height: 128, width: 96, seed: UInt64(batch))
                    let expected = try model(Tape.noGradient().constant(input)).value
                    for fused in detectors {
                        let actual = try fused(input)
                        let label = "\(head) stride4 \(stride4) \(fused.denseKernel) dense kernel batch \(batch)"
                        XCTAssertEqual(actual.shape, expected.shape, label)
                        let (worst, largest) = Closeness.worstDifference(actual, expected)
                        XCTAssertLessThanOrEqual(worst, 1e-4, "\(label): max |fused − graph| (largest |value| \(largest))")
                        XCTAssertGreaterThan(largest, 0.5, "\(label): outputs this small would make the comparison weak")
                        // Planned buffers are reused: a second call gives the same bits.
                        XCTAssertEqual(try fused(input).values, actual.values, label)
                        // So does a pass with parked workers (batch 1 runs on a WorkerTeam by default).
                        fused.keepsWorkersAwake = false
                        XCTAssertEqual(try fused(input).values, actual.values, "\(label), workers parked")
                        fused.keepsWorkersAwake = true
                    }
                }
            }
        }
    }

    /// On planes of 32 tiles of 4×4 and more (here the stride-8 level of a 256×128 input, 32×16)
    /// `winograd` runs F(4×4, 3×3); its output still matches the eval-mode graph within 1e-4, and
    /// `winograd-2x2`'s (F(2×2) on the same layers) within that too.
    func testTile4LayersMatchTheEvalModeGraphWithin1e4() throws {
        let saved = Parallel.threadCount
        Parallel.threadCount = 2
        defer { Parallel.threadCount = saved }
        for head in [UIDetectorConfiguration.HeadKind.anchorFree, .anchored] {
            let configuration = UIDetectorConfiguration(head: head, inputHeight: 256, inputWidth: 128)
            let model = try UIDetector(configuration: configuration, seed: 8)
            try RandomizedStatistics.apply(to: model, seed: 108, headPrefixes: ["head.outputs"])
            let input = images(batch: 2, height: 256, width: 128, seed: 9)
            let expected = try model(Tape.noGradient().constant(input)).value
            for kernel in [FusedDetector.DenseKernel.winograd, .winogradTile2] {
                let fused = try FusedDetector(model, denseKernel: kernel)
                let tiles = fused.denseFilters.compactMap { filters -> Int? in
                    if case let .winograd(transformed)? = filters { return transformed.outputTile }
                    return nil
                }
                XCTAssertEqual(tiles.contains(4), kernel == .winograd, "\(head) \(kernel): Winograd tiles \(tiles)")
                XCTAssertTrue(tiles.contains(2), "\(head) \(kernel): the 16×8 and smaller levels keep F(2×2)")
                let actual = try fused(input)
                let (worst, largest) = Closeness.worstDifference(actual, expected)
                XCTAssertLessThanOrEqual(worst, 1e-4, "\(head) \(kernel): max |fused − graph| (largest |value| \(largest))")
                XCTAssertGreaterThan(largest, 0.5, "\(head) \(kernel): outputs this small would make the comparison weak")
            }
        }
    }

    /// A batch-1 pass starts the model's WorkerTeam; releasing the model stops its helper
    /// threads (validation builds a model every epoch: their threads must not pile up).
    func testReleasingTheModelStopsItsWorkerTeam() throws {
        let saved = Parallel.threadCount
        Parallel.threadCount = 2
        defer { Parallel.threadCount = saved }
        func threads() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count }
        let model = try randomizedModel(head: .anchorFree, stride4: false, seed: 6)
        let image = images(batch: 1, height: 128, width: 96, seed: 7)
        _ = try FusedDetector(model)(image)  // Dispatch's own worker threads start here, once
        let before = try threads()
        for _ in 0..<3 {
            let fused = try FusedDetector(model)
            XCTAssertTrue(fused.keepsWorkersAwake)
            _ = try fused(image)
        }
        // Helpers exit on stop; give the last one a moment to leave the task list.
        var after = try threads()
        for _ in 0..<50 where after > before { usleep(10_000); after = try threads() }
        XCTAssertLessThanOrEqual(after, before, "three models made and released leave no helper threads behind")
    }

    func testRefusesImagesOfAnotherSize() throws {
        let fused = try FusedDetector(randomizedModel(head: .anchorFree, stride4: false, seed: 1))
        XCTAssertThrowsError(try fused(images(batch: 1, height: 64, width: 96, seed: 0))) { error in
            XCTAssertTrue("\(error)".contains("FusedDetector"), "\(error)")
        }
    }

    func testActivationBuffersAreSharedByLiveness() throws {
        let model = try randomizedModel(head: .anchorFree, stride4: false, seed: 2)
        let fused = try FusedDetector(model)
        // Every activation of one image, as the training graph keeps them.
        let everyValue = fused.graph.values.dropFirst().reduce(0) { $0 + $1.planeCount }
        let planned = try fused.plannedActivationFloats(batch: 1)
        XCTAssertLessThan(planned, everyValue / 3, "planned \(planned) floats of \(everyValue)")
    }

    /// The per-layer profile accounts for every step once, by type, with the multiply-adds of
    /// the convolutions (counted here from the graph's own geometry), and leaves the output as
    /// an unprofiled pass makes it.
    func testTheProfileCoversEveryStepByType() throws {
        let model = try randomizedModel(head: .anchorFree, stride4: false, seed: 3)
        let fused = try FusedDetector(model)
        let x = images(batch: 1, height: 128, width: 96, seed: 4)
        let before = try fused(x).values
        let timings = try fused.profile(x, runs: 2)
        XCTAssertEqual(timings.reduce(0) { $0 + $1.steps }, fused.graph.steps.count)
        XCTAssertEqual(Set(timings.map(\.label)).count, timings.count, "one row per type")
        let labels = Set(timings.map(\.label))
        for expected in ["stem 3×3 s2", "depthwise 3×3 s1", "depthwise 3×3 s2", "pointwise 1×1", "FPN lateral 1×1", "FPN upsample+add",
                         "FPN output 3×3", "head depthwise 3×3 s1", "head pointwise 1×1", "head output 1×1"] {
            XCTAssertTrue(labels.contains(expected), "\(expected) in \(labels.sorted())")
        }
        XCTAssertTrue(timings.allSatisfy { $0.milliseconds >= 0 })
        // The stem: 3 → C channels, 3×3, stride 2 on 128×96: 2 · C · 64 · 48 · 27 FLOP.
        let stemChannels = fused.graph.values[1].channels
        let stem = try XCTUnwrap(timings.first { $0.label == "stem 3×3 s2" })
        XCTAssertEqual(stem.gigaflops, 2 * Double(stemChannels * 64 * 48 * 27) / 1e9, accuracy: 1e-12)
        XCTAssertEqual(timings.first { $0.label == "FPN upsample+add" }?.gigaflops, 0)
        XCTAssertEqual(try fused(x).values, before, "profiling changed nothing the next pass reads")
    }
}
