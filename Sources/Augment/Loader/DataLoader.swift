import Foundation
import Data
import Imaging
import Support
import Tensor

/// Produces augmented, letterboxed, normalized batches on worker threads ahead of the trainer.
///
/// Determinism: the image at position p of epoch e is augmented with its own generator
/// `SeededRandom.stream(seed: epochSeed(e), index: p)`, so a batch's content depends on the
/// seed, epoch and position only — never on which worker made it or when. The same seed gives
/// the same batches for any worker count.
///
/// Threads: the trainer's engine also runs BLAS threads. On the 2-core machine use
/// `workers: 1` and 1–2 engine threads (the loader at ≥ 3× the training rate is idle most of
/// the time); `workers: 0` runs the pipeline inline on the caller's thread.
public final class DataLoader {
    public struct Options {
        public var batchSize = 8
        public var workers = 1
        /// Finished batches that may wait for the trainer; bounds memory.
        public var prefetch = 4
        public var seed: UInt64 = 0
        /// Drop the last, smaller batch of an epoch.
        public var dropLast = false
        /// Must match inference (the weights file records it).
        public var normalization: PixelNormalization = .unit
        public init() {}
    }

    public let source: SampleSource
    public let pipeline: AugmentPipeline
    public let options: Options
    public let sampler: RepeatFactorSampler

    public init(source: SampleSource, pipeline: AugmentPipeline, options: Options) throws {
        guard source.count > 0 else { throw LoaderError(message: "the loader has no samples (is the split empty?)") }
        guard options.batchSize > 0, options.workers >= 0, options.prefetch > 0 else {
            throw LoaderError(message: "batch size and prefetch must be positive and workers ≥ 0 (got \(options.batchSize), \(options.prefetch), \(options.workers))")
        }
        self.source = source
        self.pipeline = pipeline
        self.options = options
        sampler = RepeatFactorSampler(annotations: (0..<source.count).map { source.annotations(at: $0) },
                                      threshold: pipeline.preset.sampling.repeatThreshold)
    }

    /// Source positions of one epoch, in order (repeat-factor sampling, shuffled).
    public func epochOrder(_ epoch: Int) -> [Int] { sampler.epochOrder(seed: options.seed, epoch: epoch) }

    public func batchCount(epoch: Int) -> Int {
        let n = epochOrder(epoch).count
        return options.dropLast ? n / options.batchSize : (n + options.batchSize - 1) / options.batchSize
    }

    /// Starts the workers for one epoch; call `next()` until it returns nil.
    public func epoch(_ epoch: Int) -> EpochBatches {
        EpochBatches(job: job(epoch), workers: options.workers, prefetch: options.prefetch)
    }

    /// Exactly the image (and boxes) that `epoch(epoch)` delivers at `position`, before
    /// normalization: what `screenlab augment preview` shows.
    public func augmentedSample(epoch: Int, position: Int) throws -> (sampleIndex: Int, sample: AnnotatedImage) {
        try job(epoch).augmentedSample(at: position)
    }

    func job(_ epoch: Int) -> BatchJob {
        var seedSource = SeededRandom.stream(seed: options.seed, index: UInt64(epoch) &* 2)
        return BatchJob(order: epochOrder(epoch), epochSeed: seedSource.next(), source: source, pipeline: pipeline, options: options)
    }
}

/// Everything needed to make batch b of one epoch, on any thread.
struct BatchJob {
    let order: [Int]
    let epochSeed: UInt64
    let source: SampleSource
    let pipeline: AugmentPipeline
    let options: DataLoader.Options

    var batchCount: Int {
        options.dropLast ? order.count / options.batchSize : (order.count + options.batchSize - 1) / options.batchSize
    }

    func makeBatch(_ index: Int) throws -> Batch {
        let start = index * options.batchSize, end = min(order.count, start + options.batchSize)
        let width = pipeline.outputWidth, height = pipeline.outputHeight
        var images = Tensor(uninitialized: [end - start, 3, height, width])
        var targets: [[Annotation]] = [], sampleIndices: [Int] = []
        for position in start..<end {
            let (sampleIndex, item) = try augmentedSample(at: position)
            let slot = (position - start) * 3 * height * width
            images.withUnsafeMutableBufferPointer { buffer in
                item.image.writeCHW(into: buffer.baseAddress! + slot, normalization: options.normalization)
            }
            targets.append(item.annotations)
            sampleIndices.append(sampleIndex)
        }
        return Batch(images: images, targets: targets, sampleIndices: sampleIndices)
    }

    func augmentedSample(at position: Int) throws -> (sampleIndex: Int, sample: AnnotatedImage) {
        var random = SeededRandom.stream(seed: epochSeed, index: UInt64(position))
        let item = try pipeline.augment(order[position], from: source, random: &random)
        return (source.sampleIndex(at: order[position]), item)
    }
}

/// The batches of one epoch, in order. Workers claim batch numbers in turn and stop
/// `prefetch` batches ahead of the consumer; finished batches wait in a reorder buffer.
/// Dropping this object (or `cancel()`) stops the workers after their current batch.
public final class EpochBatches {
    private let state: SharedState
    public let count: Int

    init(job: BatchJob, workers: Int, prefetch: Int) {
        state = SharedState(job: job, prefetch: prefetch)
        count = job.batchCount
        state.inline = workers == 0
        for worker in 0..<workers {
            let state = self.state
            let thread = Thread { state.work() }
            thread.name = "screenlab-loader-\(worker)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    deinit { cancel() }

    public func cancel() { state.cancel() }

    /// The next batch, nil at the end of the epoch; rethrows a failure to read or augment a sample.
    public func next() throws -> Batch? { try state.take() }

    final class SharedState {
        let job: BatchJob
        let prefetch: Int
        let condition = NSCondition()
        var nextToClaim = 0
        var nextToTake = 0
        var finished: [Int: Result<Batch, Error>] = [:]
        var cancelled = false
        var inline = false

        init(job: BatchJob, prefetch: Int) {
            self.job = job
            self.prefetch = prefetch
        }

        func work() {
            while true {
                condition.lock()
                while !cancelled, nextToClaim < job.batchCount, nextToClaim >= nextToTake + prefetch { condition.wait() }
                guard !cancelled, nextToClaim < job.batchCount else { condition.unlock(); return }
                let index = nextToClaim
                nextToClaim += 1
                condition.unlock()
                let result = Result { try job.makeBatch(index) }
                condition.lock()
                finished[index] = result
                condition.broadcast()
                condition.unlock()
            }
        }

        func take() throws -> Batch? {
            condition.lock()
            defer { condition.unlock() }
            guard !cancelled, nextToTake < job.batchCount else { return nil }
            let index = nextToTake
            if inline {
                condition.unlock()
                let result = Result { try job.makeBatch(index) }
                condition.lock()
                finished[index] = result
            }
            while finished[index] == nil, !cancelled { condition.wait() }
            guard let result = finished.removeValue(forKey: index) else { return nil }
            nextToTake += 1
            condition.broadcast()
            if case .failure = result { cancelled = true; condition.broadcast() }
            return try result.get()
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
