import Augment
import Autograd
import Data
import Detection
import Foundation
import Kernels
import NN
import Support

/// The real training step of an experiment as a run takes it — the loader's next batch (time
/// spent waiting for it included), assignment, loss, backward, optimizer, EMA — timed step by
/// step without validation or checkpoints: what `bench train` compares with the bare step.
public final class TrainingThroughput {
    let setup: TrainingSetup
    private let stream: BatchStream
    private var step = 0
    /// Whether `labelLayersByPath` ran (a second call leaves the labels as they are).
    private var labelsHavePaths = false
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

    /// Prefixes every convolution's profile label with its module path and follows it with its
    /// channels ("backbone.stage3.0.pointwise pointwise 1×1 16→32"), so that a profile (`bench train
    /// --profile --per-layer`) gives each layer its own row instead of one row per layer type. A
    /// convolution inside a conv-BN-activation block or a depthwise layer takes the block's path (its
    /// parameters' names). Batch norms keep their type labels: fused into the depthwise layer after
    /// them, they read "BN+ReLU6 → backbone.stage3.0.depthwise depthwise 3×3 s1 16→16 → BN+ReLU6", the
    /// layer named once. A module reached by two paths (a shared head) keeps the first. Only the
    /// labels change: the step computes the same values.
    public func labelLayersByPath() {
        if labelsHavePaths { return }
        labelsHavePaths = true
        var labelled = Set<ObjectIdentifier>()
        func label(_ module: Module, _ path: String) {
            guard let type = module.profileLabel, labelled.insert(ObjectIdentifier(module)).inserted else { return }
            // A convolution's channels too: a row's size without a shape table beside it.
            let channels = (module as? Conv2d).map { " \($0.weight.shape[1] * $0.groups)→\($0.weight.shape[0])" } ?? ""
            module.profileLabel = "\(path) \(type)\(channels)"
        }
        for (path, module) in setup.model.namedModules() where !path.isEmpty && !(module is BatchNorm2d) {
            if let block = module as? ConvBatchNormActivation { label(block.conv, path) }
            if let layer = module as? DepthwiseConv2d { label(layer.convolution, path) }
            label(module, path)
        }
    }

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
