import Autograd
import Detection
import Foundation
import Kernels
import NN
import Support
import Tensor
import Training

/// Times the reference detector's training step (forward, Σx² loss, backward, SGD) as the
/// PyTorch peer's torch_bench.py does, and the time per layer type.
public struct EngineBenchmark {
    public struct StepResult {
        public let batch: Int
        public let secondsPerStep: [Double]
        /// Per step: forward (incl. loss), backward, optimizer (zeroing + update) seconds.
        public let phases: [StepPhases]
        public var medianSeconds: Double { EngineBenchmark.median(secondsPerStep) }
        public var imagesPerSecond: Double { Double(batch) / medianSeconds }
        public let firstLoss: Float, lastLoss: Float
        public var medianPhases: StepPhases {
            StepPhases(forward: EngineBenchmark.median(phases.map(\.forward)), backward: EngineBenchmark.median(phases.map(\.backward)),
                       optimizer: EngineBenchmark.median(phases.map(\.optimizer)))
        }
    }

    public typealias StepPhases = NN.StepPhases

    static func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }

    /// One layer type (a profile label such as "depthwise 3×3 s2"), per training step.
    public struct LayerTiming {
        public let label: String
        /// Ops recorded per step under this label (a fused BN+ReLU6 is one op).
        public let calls: Int
        public let forwardMilliseconds: Double
        public let backwardMilliseconds: Double

        /// Per label, the mean per step of `profile` accumulated over `steps` steps.
        public static func averaged(_ profile: OpProfile, steps: Int) -> [LayerTiming] {
            let steps = max(1, steps)
            return profile.entries.map { entry in
                LayerTiming(label: entry.label, calls: entry.calls / steps,
                            forwardMilliseconds: Double(entry.forwardNanoseconds) / 1e6 / Double(steps),
                            backwardMilliseconds: Double(entry.backwardNanoseconds) / 1e6 / Double(steps))
            }
        }
    }

    /// The label the Σx² loss is charged to.
    public static let lossLabel = "loss Σx²"

    public let configuration: DetectorConfiguration
    public let batch: Int

    /// Throws unless the configuration is valid and the batch holds at least 2 images (train-mode batch norm).
    public init(configuration: DetectorConfiguration = .reference, batch: Int = 8) throws {
        try configuration.validate()
        guard batch >= 2 else { throw TensorError.invalidArgument(op: "EngineBenchmark", reason: "batch is \(batch); train-mode batch norm needs at least 2 images") }
        self.configuration = configuration
        self.batch = batch
    }

    func makeInput(seed: UInt64) -> Tensor {
        var rng = SeededRandom(seed: seed)
        return Initialization.normal(shape: [batch, 3, configuration.inputHeight, configuration.inputWidth], standardDeviation: 1, rng: &rng)
    }

    /// One training step — the trainer's own `TrainingStep` with the peer's Σx² objective in
    /// place of the detection loss; returns the loss and the time of each phase.
    static func trainingStep(model: ReferenceDetector, optimizer: SGD, input: Tensor, profile: OpProfile? = nil) throws -> (loss: Float, phases: StepPhases) {
        let result = try TrainingStep.run(images: input, step: 0, forward: { try model($0) }, objective: { outputs in
            let total = try outputs[0].tape.profiled(as: lossLabel) {
                try outputs.dropFirst().reduce(outputs[0].sumOfSquares()) { try $0 + $1.sumOfSquares() }
            }
            return StepLoss(total: total, terms: [])
        }, optimizer: optimizer, profile: profile)
        return (result.loss, result.phases)
    }

    /// Median over `steps` timed steps after `warmup` untimed ones (lr 1e-7 as in the peer, so
    /// the weights barely move and every step does the same work).
    public func measureTrainingStep(warmup: Int = 2, steps: Int = 10, progress: Bool = true) throws -> StepResult {
        let model = try ReferenceDetector(configuration: configuration, seed: 0)
        model.train()
        let optimizer = try SGD(parameters: model.trainableParameters(), learningRate: 1e-7)
        let input = makeInput(seed: 1)
        var losses: [Float] = []
        for _ in 0..<warmup { losses.append(try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input).loss) }
        var times: [Double] = [], phases: [StepPhases] = []
        let line = ProgressLine("train step batch \(batch)", total: steps, unit: "steps", enabled: progress)
        for _ in 0..<steps {
            let clock = Stopwatch()
            let (loss, stepPhases) = try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input)
            times.append(clock.seconds)
            losses.append(loss)
            phases.append(stepPhases)
            line.advance()
        }
        line.finish()
        return StepResult(batch: batch, secondsPerStep: times, phases: phases, firstLoss: losses.first ?? .nan, lastLoss: losses.last ?? .nan)
    }

    /// Forward and backward time per layer type of the model (stem, depthwise 3×3 s1/s2,
    /// pointwise 1×1, BN+ReLU6, FPN lateral/output/top-down, head, loss), in forward order,
    /// averaged over `steps` profiled training steps. Layer types are the layers' profile labels.
    public func profileLayers(steps: Int = 3) throws -> [LayerTiming] {
        let model = try ReferenceDetector(configuration: configuration, seed: 0)
        model.train()
        let optimizer = try SGD(parameters: model.trainableParameters(), learningRate: 1e-7)
        let input = makeInput(seed: 1)
        _ = try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input)
        let profile = OpProfile()
        let steps = max(1, steps)
        for _ in 0..<steps { _ = try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input, profile: profile) }
        return LayerTiming.averaged(profile, steps: steps)
    }

    /// Peak resident memory of this process so far (VmHWM), in bytes.
    public static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}

/// The per-layer-type table `bench engine` prints (`heading`: its first column's title, which
/// `bench train --profile --per-layer` changes for its rows by module path).
public enum LayerTimingTable {
    public static func render(_ timings: [EngineBenchmark.LayerTiming], heading: String = "layer type") -> String {
        func column(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(1, width - s.count)) + s }
        // As wide as the longest label (a fused op reads "BN+ReLU6 → depthwise 3×3 s1 → BN+ReLU6"), at least 22.
        let labelWidth = max(22, (timings.map(\.label.count).max() ?? 0) + 1)
        let total = timings.reduce(0) { $0 + $1.forwardMilliseconds + $1.backwardMilliseconds }
        var lines = [heading.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            + column("ops", 5) + column("forward ms", 12) + column("backward ms", 13) + column("total ms", 10) + column("share", 8)]
        for t in timings {
            let sum = t.forwardMilliseconds + t.backwardMilliseconds
            lines.append(t.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + column("\(t.calls)", 5)
                + column(String(format: "%.1f", t.forwardMilliseconds), 12) + column(String(format: "%.1f", t.backwardMilliseconds), 13)
                + column(String(format: "%.1f", sum), 10) + column(String(format: "%.1f%%", total > 0 ? 100 * sum / total : 0), 8))
        }
        let forward = timings.reduce(0) { $0 + $1.forwardMilliseconds }, backward = timings.reduce(0) { $0 + $1.backwardMilliseconds }
        lines.append("total".padding(toLength: labelWidth, withPad: " ", startingAt: 0) + column("\(timings.reduce(0) { $0 + $1.calls })", 5)
            + column(String(format: "%.1f", forward), 12) + column(String(format: "%.1f", backward), 13) + column(String(format: "%.1f", total), 10))
        return lines.joined(separator: "\n")
    }
}
