import Autograd
import Foundation
import Kernels
import NN
import Support
import Tensor

/// Times the reference detector's training step (forward, Σx² loss, backward, SGD) as the
/// PyTorch peer's torch_bench.py does, and the time per op kind.
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

    public struct StepPhases {
        public var forward = 0.0, backward = 0.0, optimizer = 0.0
    }

    static func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }

    public struct OpTiming {
        public let kind: OpKind
        public let calls: Int
        public let forwardMilliseconds: Double
        public let backwardMilliseconds: Double
    }

    public let configuration: DetectorConfiguration
    public let batch: Int

    public init(configuration: DetectorConfiguration = .reference, batch: Int = 8) {
        self.configuration = configuration
        self.batch = batch
    }

    func makeInput(seed: UInt64) -> Tensor {
        var rng = SeededRandom(seed: seed)
        return Initialization.normal(shape: [batch, 3, configuration.inputHeight, configuration.inputWidth], standardDeviation: 1, rng: &rng)
    }

    /// One training step; returns the loss and the time of each phase.
    static func trainingStep(model: ReferenceDetector, optimizer: SGD, input: Tensor, profile: OpProfile? = nil) throws -> (loss: Float, phases: StepPhases) {
        func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        var phases = StepPhases()
        var t0 = now()
        optimizer.zeroGradients()
        let tape = Tape()
        tape.profile = profile
        let outputs = try model(tape.constant(input))
        var loss = outputs[0].sumOfSquares()
        for o in outputs.dropFirst() { loss = try loss + o.sumOfSquares() }
        var t1 = now()
        phases.forward = t1 - t0
        t0 = t1
        try tape.backward(loss)
        t1 = now()
        phases.backward = t1 - t0
        t0 = t1
        try optimizer.step()
        phases.optimizer = now() - t0
        return (loss.value.scalarValue, phases)
    }

    /// Median over `steps` timed steps after `warmup` untimed ones (lr 1e-7 as in the peer, so
    /// the weights barely move and every step does the same work).
    public func measureTrainingStep(warmup: Int = 2, steps: Int = 10, progress: Bool = true) throws -> StepResult {
        let model = ReferenceDetector(configuration: configuration, seed: 0)
        model.train()
        let optimizer = try SGD(parameters: model.trainableParameters(), learningRate: 1e-7)
        let input = makeInput(seed: 1)
        var losses: [Float] = []
        for _ in 0..<warmup { losses.append(try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input).loss) }
        var times: [Double] = [], phases: [StepPhases] = []
        let line = ProgressLine("train step batch \(batch)", total: steps, unit: "steps", enabled: progress)
        for _ in 0..<steps {
            let start = DispatchTime.now().uptimeNanoseconds
            let (loss, stepPhases) = try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            losses.append(loss)
            phases.append(stepPhases)
            line.advance()
        }
        line.finish()
        return StepResult(batch: batch, secondsPerStep: times, phases: phases, firstLoss: losses.first ?? .nan, lastLoss: losses.last ?? .nan)
    }

    /// Forward and backward time per op kind, averaged over `steps` profiled training steps.
    public func profileOps(steps: Int = 3) throws -> [OpTiming] {
        let model = ReferenceDetector(configuration: configuration, seed: 0)
        model.train()
        let optimizer = try SGD(parameters: model.trainableParameters(), learningRate: 1e-7)
        let input = makeInput(seed: 1)
        _ = try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input)
        let profile = OpProfile()
        for _ in 0..<steps { _ = try EngineBenchmark.trainingStep(model: model, optimizer: optimizer, input: input, profile: profile) }
        return OpKind.allCases.compactMap { kind in
            guard let calls = profile.calls[kind] else { return nil }
            return OpTiming(kind: kind, calls: calls / steps,
                            forwardMilliseconds: Double(profile.forwardNanoseconds[kind] ?? 0) / 1e6 / Double(steps),
                            backwardMilliseconds: Double(profile.backwardNanoseconds[kind] ?? 0) / 1e6 / Double(steps))
        }
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
