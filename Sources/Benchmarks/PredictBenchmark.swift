import Autograd
import Dispatch
import Detection
import Foundation
import Inference
import Kernels
import NN
import Support
import Tensor

/// `screenlab bench predict`: the fused inference model against the training graph in eval
/// mode (`UIDetector` on a no-gradient tape), batch-1 latency and batch-8 throughput, medians
/// over interleaved rounds so slow drifts in machine load hit both alike.
public struct PredictBenchmark {
    public struct Result {
        public let configuration: UIDetectorConfiguration
        /// Median milliseconds per forward pass.
        public let fusedBatch1: Double, graphBatch1: Double
        public let fusedBatch8: Double, graphBatch8: Double
        /// Median milliseconds to fold the model (what every `predict` call pays first).
        public let folding: Double
        /// The same fused model run differently, when measured (`includeVariants`): with each
        /// other dense kernel, and with its workers parked after every loop (`keepsWorkersAwake`
        /// off: no `WorkerTeam`). Median batch-1 ms and batch-8 ms, same rounds as the rest.
        public var variants: [Variant] = []
        public var fusedImagesPerSecond: Double { 8000 / fusedBatch8 }
        public var graphImagesPerSecond: Double { 8000 / graphBatch8 }
    }

    /// One way of running the fused model besides the measured one.
    public struct Variant {
        /// `.dense(kernel)`: another dense kernel; `.parked`: the same kernel without a `WorkerTeam`;
        /// `.instructionSet(isa)`: the same model with the micro-kernel of another `VectorISA`.
        public enum Kind: Equatable { case dense(FusedDetector.DenseKernel), parked, instructionSet(VectorISA) }
        public let kind: Kind
        public let batch1: Double, batch8: Double
        public var label: String {
            switch kind {
            case let .dense(kernel): "\(kernel.rawValue) dense kernel"
            case .parked: "workers parked between batch-1 loops (no WorkerTeam)"
            case let .instructionSet(isa): "\(isa.rawValue) micro-kernel"
            }
        }
    }

    public let configuration: UIDetectorConfiguration

    public init(configuration: UIDetectorConfiguration = UIDetectorConfiguration()) throws {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The timed model: seed-0 weights, eval mode (the same in every measurement).
    func evalModel() throws -> UIDetector {
        let model = try UIDetector(configuration: configuration, seed: 0)
        model.eval()
        return model
    }

    /// `batch` input images of standard-normal values, drawn from `random`.
    func randomImages(_ batch: Int, _ random: inout SeededRandom) -> Tensor {
        Initialization.normal(shape: [batch, 3, configuration.inputHeight, configuration.inputWidth], standardDeviation: 1, rng: &random)
    }

    /// The peer's architecture (`../shared/peers/torch-reference/detector.py`): the shared SSD
    /// head, 13 classes × 3 anchors, strides 8/16/32 — same layers and sizes as its Detector.
    public static let peerArchitecture = UIDetectorConfiguration(head: .anchored, classCount: 13, anchorsPerCell: 3)

    /// `rounds` alternating blocks per contender; `batch1Runs` / `batch8Runs` timed runs in all.
    /// `includeVariants` also times the fused model with every other dense kernel and with parked
    /// workers, in the same rounds (the same-run references of `denseKernel` and of the team).
    public func measure(rounds: Int, batch1Runs: Int, batch8Runs: Int, includeGraph: Bool = true, includeVariants: Bool = false,
                        denseKernel: FusedDetector.DenseKernel = .winograd) throws -> Result {
        let model = try evalModel()
        let fused = try FusedDetector(model, denseKernel: denseKernel)
        var variants: [(Variant.Kind, FusedDetector)] = []
        if includeVariants {
            for kernel in FusedDetector.DenseKernel.allCases where kernel != denseKernel {
                variants.append((.dense(kernel), try FusedDetector(model, denseKernel: kernel)))
            }
            let parked = try FusedDetector(model, denseKernel: denseKernel)
            parked.keepsWorkersAwake = false
            variants.append((.parked, parked))
            for isa in VectorISA.supported where isa != VectorISA.current {
                variants.append((.instructionSet(isa), fused))
            }
        }
        var random = SeededRandom(seed: 1)
        let one = randomImages(1, &random), eight = randomImages(8, &random)
        func graph(_ x: Tensor) -> InterleavedTiming.Contender {
            InterleavedTiming.Contender { _ = try model(Tape.noGradient().constant(x)) }
        }
        let measuredISA = VectorISA.current
        func run(_ detector: FusedDetector, _ x: Tensor, isa: VectorISA? = nil) -> InterleavedTiming.Contender {
            guard let isa else { return InterleavedTiming.Contender { _ = try detector(x) } }
            return InterleavedTiming.Contender {
                VectorISA.use(isa)
                defer { VectorISA.use(measuredISA) }
                _ = try detector(x)
            }
        }
        func run(_ variant: (Variant.Kind, FusedDetector), _ x: Tensor) -> InterleavedTiming.Contender {
            if case let .instructionSet(isa) = variant.0 { return run(variant.1, x, isa: isa) }
            return run(variant.1, x)
        }
        let folding = InterleavedTiming.Contender { _ = try FusedDetector(model, denseKernel: denseKernel) }
        let small = try InterleavedTiming.medianMilliseconds(
            [run(fused, one)] + (includeGraph ? [graph(one)] : []) + variants.map { run($0, one) } + [folding],
            repetitions: batch1Runs, rounds: rounds)
        let large = try InterleavedTiming.medianMilliseconds(
            [run(fused, eight)] + (includeGraph ? [graph(eight)] : []) + variants.map { run($0, eight) },
            repetitions: batch8Runs, rounds: rounds)
        var result = Result(configuration: configuration, fusedBatch1: small[0], graphBatch1: includeGraph ? small[1] : .nan,
                            fusedBatch8: large[0], graphBatch8: includeGraph ? large[1] : .nan, folding: small.last!)
        let at = includeGraph ? 2 : 1
        result.variants = variants.enumerated().map { i, v in Variant(kind: v.0, batch1: small[at + i], batch8: large[at + i]) }
        return result
    }
}

/// Batch-1 latencies of one model timed back to back, summarised as ort_bench.py prints them.
public struct LatencyDistribution {
    /// Milliseconds per run, in the order they ran.
    public let series: [Double]
    public var median: Double { sorted[sorted.count / 2] }
    public var minimum: Double { sorted[0] }
    public var p90: Double { sorted[Int(0.9 * Double(sorted.count))] }
    private let sorted: [Double]

    public init(series: [Double]) {
        precondition(!series.isEmpty, "a latency distribution needs at least one run")
        self.series = series
        sorted = series.sorted()
    }
}

extension PredictBenchmark {
    /// ort_bench.py's protocol applied to the fused model: `warmup` untimed runs, then `runs`
    /// timed back to back on one batch-1 input (no other contender in between), so the two
    /// numbers of an alternating round are measured the same way.
    public func batch1Latencies(runs: Int = 200, warmup: Int = 10, denseKernel: FusedDetector.DenseKernel = .winograd) throws -> LatencyDistribution {
        let fused = try FusedDetector(try evalModel(), denseKernel: denseKernel)
        var random = SeededRandom(seed: 1)
        let image = randomImages(1, &random)
        for _ in 0..<warmup { _ = try fused(image) }
        var series: [Double] = []
        series.reserveCapacity(runs)
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try fused(image)
            series.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return LatencyDistribution(series: series)
    }
}

extension PredictBenchmark {
    /// The fused model's batch-`batch` forward pass by layer type, averaged over `runs` passes.
    public func profile(batch: Int, runs: Int, perLayer: Bool = false, denseKernel: FusedDetector.DenseKernel = .winograd) throws -> [LayerTypeTiming] {
        var random = SeededRandom(seed: 1)
        let images = randomImages(batch, &random)
        return try FusedDetector(try evalModel(), denseKernel: denseKernel).profile(images, runs: runs, perLayer: perLayer)
    }

    /// The table `bench predict --profile` prints: per layer type, steps, ms, share, GFLOP and GFLOP/s.
    public static func profileTable(_ timings: [LayerTypeTiming]) -> String {
        func column(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(1, width - s.count)) + s }
        let total = timings.reduce(0) { $0 + $1.milliseconds }
        let labelWidth = max(22, (timings.map(\.label.count).max() ?? 0) + 1)
        var lines = ["layer type".padding(toLength: labelWidth, withPad: " ", startingAt: 0) + column("steps", 6) + column("ms", 9)
            + column("share", 8) + column("GFLOP", 8) + column("GFLOP/s", 9)]
        for t in timings {
            lines.append(t.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + column("\(t.steps)", 6)
                + column(String(format: "%.2f", t.milliseconds), 9) + column(String(format: "%.1f%%", total > 0 ? 100 * t.milliseconds / total : 0), 8)
                + column(String(format: "%.3f", t.gigaflops), 8) + column(t.gigaflops > 0 ? String(format: "%.1f", t.gigaflopsPerSecond) : "—", 9))
        }
        let flops = timings.reduce(0) { $0 + $1.gigaflops }
        lines.append("total".padding(toLength: labelWidth, withPad: " ", startingAt: 0) + column("\(timings.reduce(0) { $0 + $1.steps })", 6)
            + column(String(format: "%.2f", total), 9) + column("", 8) + column(String(format: "%.3f", flops), 8)
            + column(String(format: "%.1f", total > 0 ? flops / (total / 1000) : 0), 9))
        return lines.joined(separator: "\n")
    }
}

/// The PyTorch and ONNX Runtime inference numbers of the peer scripts in
/// `../shared/peers/torch-reference` (torch_bench.py, ort_bench.py), run as child processes.
public struct InferencePeers {
    /// "NCHW" / "channels_last" → median milliseconds, batch 1 and batch 8.
    public var torchBatch1: [String: Double] = [:]
    public var torchBatch8: [String: Double] = [:]
    /// ONNX Runtime batch-1 median milliseconds (ORT_ENABLE_ALL, 2 intra-op threads).
    public var onnxRuntimeBatch1: Double?

    public init() {}

    public static func runScript(python: String, folder: String, script: String, arguments: [String] = []) throws -> String {
        try PeerScript.run(python: python, folder: folder, script: script, arguments: arguments)
    }

    /// Reads torch_bench.py's "[NCHW] inference batch 1 (eval, inference_mode): median 23.10 ms, …"
    /// and "[NCHW] inference batch 8 (eval): median 120.5 ms -> 66.4 img/s".
    public mutating func readTorch(_ text: String) {
        for line in text.split(separator: "\n") where line.contains("inference batch") {
            guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]"),
                  let milliseconds = Self.median(in: line) else { continue }
            let format = String(line[line.index(after: open)..<close])
            if line.contains("inference batch 1 ") { torchBatch1[format] = milliseconds }
            if line.contains("inference batch 8 ") { torchBatch8[format] = milliseconds }
        }
    }

    /// Reads ort_bench.py's "[ORT ORT_ENABLE_ALL, intra_op=2] batch 1 latency: median 9.30 ms, …".
    public mutating func readOnnxRuntime(_ text: String) {
        for line in text.split(separator: "\n") where line.hasPrefix("[ORT") && line.contains("batch 1 latency") {
            onnxRuntimeBatch1 = Self.median(in: line)
        }
    }

    /// The number after "median " in milliseconds.
    static func median(in line: Substring) -> Double? {
        guard let range = line.range(of: "median ") else { return nil }
        return line[range.upperBound...].split(separator: " ").first.flatMap { Double($0) }
    }
}
