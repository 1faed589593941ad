import Augment
import Autograd
import Data
import Detection
import Foundation
import Kernels
import Support

/// The real training step of an experiment as a run takes it — the loader's next batch (time
/// spent waiting for it included), assignment, loss, backward, optimizer, EMA — timed step by
/// step without validation or checkpoints: what `bench train` compares with the bare step.
public final class TrainingThroughput {
    let setup: TrainingSetup
    private let stream: BatchStream
    private var step = 0
    public let batchSize: Int
    /// The detector whose step is timed.
    public var detectorConfiguration: UIDetectorConfiguration { setup.model.configuration }

    public init(experiment file: URL, overrides: [String], cacheFolder: URL? = nil, log: @escaping (String) -> Void = { _ in }) throws {
        var config = try ExperimentConfig.load(contentsOf: file, overrides: overrides)
        let root = DatasetConfig.repoRoot(containing: file)
        // `init: run:NAME` (the transfer arms) means that run's weights, as in `train`.
        _ = try InitReference.resolve(in: &config, runs: root.appendingPathComponent("Experiments/runs"), root: root, file: file.relativePath)
        _ = try InitReference.resolveTeacher(in: &config, runs: root.appendingPathComponent("Experiments/runs"), root: root, file: file.relativePath)
        setup = try TrainingSetup(config: config, repositoryRoot: root, cacheFolder: cacheFolder ?? root.appendingPathComponent("Experiments/cache"), log: log)
        stream = try setup.loader.batches(fromEpoch: 0, startingAtBatch: 0)
        batchSize = config.batchSize
    }

    deinit { stream.cancel() }

    public struct Timing {
        public var seconds: Double
        /// Of which waiting for the loader.
        public var waitingSeconds: Double
        public var images: Int
        /// Optimizer, clipping and EMA: the part of a step outside the tape.
        public var optimizerSeconds: Double
    }

    /// Runs `steps` steps with the assigner the experiment's later epochs use; with `profile`,
    /// every op's forward and backward time is added to it under its layer's label. With
    /// `preloaded`, the steps' batches are taken from the loader first and the clock starts once
    /// the loader has refilled its look-ahead and stopped: the step without the loader's CPU
    /// beside it (`bench train --loader-share`).
    public func run(steps: Int, profile: OpProfile? = nil, preloaded: Bool = false) throws -> [Timing] {
        var timings: [Timing] = []
        let epoch = setup.config.assigner.staticEpochs ?? 0
        var ready: [Batch] = []
        if preloaded {
            for _ in 0..<steps { if let (_, _, batch) = try stream.next() { ready.append(batch) } }
            stream.waitUntilAhead()
        }
        for index in 0..<steps {
            let clock = Stopwatch()
            let next = index < ready.count ? ready[index] : try stream.next()?.batch
            guard let batch = next else { break }
            let waited = clock.seconds
            let result = try Conv2dKernel.withDenseKernels(setup.config.denseKernels) {
                try setup.step(batch, epoch: epoch, step: step, profile: profile)
            }
            step += 1
            timings.append(Timing(seconds: clock.seconds, waitingSeconds: waited, images: batch.images.shape[0],
                                  optimizerSeconds: result.phases.optimizer))
        }
        return timings
    }
}
