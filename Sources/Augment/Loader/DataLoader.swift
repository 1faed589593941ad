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
/// Look-ahead: workers make at most `prefetch` batches that the trainer has not taken yet.
/// `epoch(_:)` serves one epoch; `batches(fromEpoch:)` serves every epoch from one on with
/// the same workers, so the next epoch's first batches are ready while the current one ends.
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
    /// Sees every batch claimed and finished by a worker (tests check the look-ahead with it).
    var observer: ((BatchProduction.Event) -> Void)?

    public init(source: SampleSource, pipeline: AugmentPipeline, options: Options) throws {
        guard source.count > 0 else { throw LoaderError(message: "the loader has no samples (is the split empty?)") }
        guard options.batchSize > 0, options.workers >= 0, options.prefetch > 0 else {
            throw LoaderError(message: "batch size and prefetch must be positive and workers ≥ 0 (got \(options.batchSize), \(options.prefetch), \(options.workers))")
        }
        // Every epoch holds each sample at least once, so this keeps every epoch at one batch or more.
        guard !options.dropLast || source.count >= options.batchSize else {
            throw LoaderError(message: "dropLast with \(source.count) samples and batch size \(options.batchSize) leaves no batch; lower the batch size")
        }
        self.source = source
        self.pipeline = pipeline
        self.options = options
        sampler = RepeatFactorSampler(annotations: (0..<source.count).map { source.annotations(at: $0) },
                                      threshold: pipeline.preset.sampling.repeatThreshold)
    }

    /// Source positions of one epoch, in order (repeat-factor sampling, shuffled).
    public func epochOrder(_ epoch: Int) -> [Int] { sampler.epochOrder(seed: options.seed, epoch: epoch) }

    public func batchCount(epoch: Int) -> Int { job(epoch).batchCount }

    /// Starts the workers for one epoch; call `next()` until it returns nil.
    public func epoch(_ epoch: Int) -> EpochBatches {
        EpochBatches(production: production(firstEpoch: epoch, epochs: 1), count: batchCount(epoch: epoch))
    }

    /// Every epoch from `epoch` on, with no pause at epoch boundaries; `next()` never returns nil.
    public func batches(fromEpoch epoch: Int) -> BatchStream {
        BatchStream(production: production(firstEpoch: epoch, epochs: nil))
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

    private func production(firstEpoch: Int, epochs: Int?) -> BatchProduction {
        let production = BatchProduction(firstEpoch: firstEpoch, epochs: epochs, prefetch: options.prefetch,
                                         inline: options.workers == 0, observer: observer) { [self] in job($0) }
        production.start(workers: options.workers)
        return production
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

/// The batches of one epoch, in order. Dropping this object (or `cancel()`) stops the workers
/// after their current batch.
public final class EpochBatches {
    private let production: BatchProduction
    public let count: Int

    init(production: BatchProduction, count: Int) {
        self.production = production
        self.count = count
    }

    deinit { production.cancel() }

    public func cancel() { production.cancel() }

    /// The next batch, nil at the end of the epoch; rethrows a failure to read or augment a sample.
    public func next() throws -> Batch? { try production.take()?.batch }
}

/// The batches of every epoch from a first one on, in order, made by one set of workers.
/// Dropping this object (or `cancel()`) stops the workers after their current batch.
public final class BatchStream {
    private let production: BatchProduction

    init(production: BatchProduction) { self.production = production }

    deinit { production.cancel() }

    public func cancel() { production.cancel() }

    /// The next batch with its epoch and its index in that epoch; nil only after `cancel()`.
    public func next() throws -> (epoch: Int, index: Int, batch: Batch)? { try production.take() }
}

/// Batches numbered across epochs (global index g: the epochs' batches one after another).
/// Workers claim numbers in turn and stop `prefetch` numbers ahead of the consumer; finished
/// batches wait in a reorder buffer.
final class BatchProduction {
    enum Event: Equatable {
        /// A worker took batch `index` (global); `ahead` batches are now claimed but not yet taken.
        case claimed(index: Int, ahead: Int)
        case finished(index: Int)
    }

    private let firstEpoch: Int
    /// Number of epochs to serve; nil: no end.
    private let epochs: Int?
    private let prefetch: Int
    private let inline: Bool
    private let observer: ((Event) -> Void)?
    private let makeJob: (Int) -> BatchJob
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var jobs: [BatchJob] = []
    /// Global index of each known epoch's first batch, plus the end of the last known epoch.
    private var epochStarts = [0]
    private var nextToClaim = 0
    private var nextToTake = 0
    private var finished: [Int: Result<Batch, Error>] = [:]
    private var cancelled = false

    init(firstEpoch: Int, epochs: Int?, prefetch: Int, inline: Bool, observer: ((Event) -> Void)?,
         makeJob: @escaping (Int) -> BatchJob) {
        self.firstEpoch = firstEpoch
        self.epochs = epochs
        self.prefetch = prefetch
        self.inline = inline
        self.observer = observer
        self.makeJob = makeJob
    }

    func start(workers: Int) {
        for worker in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.name = "screenlab-loader-\(worker)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// With the lock held: the job and in-epoch index of global batch `index`, learning epochs
    /// as needed; nil past the last epoch.
    private func locate(_ index: Int) -> (epochOffset: Int, job: BatchJob, batch: Int)? {
        while index >= epochStarts.last! {
            if let epochs, jobs.count == epochs { return nil }
            let job = makeJob(firstEpoch + jobs.count)
            jobs.append(job)
            epochStarts.append(epochStarts.last! + job.batchCount)
        }
        var offset = jobs.count - 1
        while epochStarts[offset] > index { offset -= 1 }
        return (offset, jobs[offset], index - epochStarts[offset])
    }

    private func work() {
        while true {
            condition.lock()
            var claim: (epochOffset: Int, job: BatchJob, batch: Int)?
            while !cancelled {
                claim = locate(nextToClaim)
                if claim == nil || nextToClaim < nextToTake + prefetch { break }
                condition.wait()
            }
            guard !cancelled, let (_, job, batch) = claim else { condition.unlock(); return }
            let index = nextToClaim
            nextToClaim += 1
            observer?(.claimed(index: index, ahead: nextToClaim - nextToTake))
            condition.unlock()
            let result = Result { try job.makeBatch(batch) }
            condition.lock()
            finished[index] = result
            observer?(.finished(index: index))
            condition.broadcast()
            condition.unlock()
        }
    }

    func take() throws -> (epoch: Int, index: Int, batch: Batch)? {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled, let (epochOffset, job, batch) = locate(nextToTake) else { return nil }
        let index = nextToTake
        if inline {
            condition.unlock()
            let result = Result { try job.makeBatch(batch) }
            condition.lock()
            finished[index] = result
        }
        while finished[index] == nil, !cancelled { condition.wait() }
        guard let result = finished.removeValue(forKey: index) else { return nil }
        nextToTake += 1
        if case .failure = result { cancelled = true }
        condition.broadcast()
        return (firstEpoch + epochOffset, batch, try result.get())
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
