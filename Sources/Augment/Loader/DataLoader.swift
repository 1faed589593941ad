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
/// `batches(fromEpoch:startingAtBatch:)` resumes an interrupted run mid-epoch: since a batch
/// depends on (seed, epoch, position) only, the batches before it need not be made at all.
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
        /// Data parallelism: this process makes only its share of every batch, positions
        /// [index·B/count, (index+1)·B/count) of each batch of `batchSize` B, which must divide by
        /// `count` (with `dropLast`). Every rank draws the same epoch order from the seed, and an
        /// image depends on (seed, epoch, position) only, so the ranks' shares together are exactly
        /// the batch one process would make.
        public var shard = (index: 0, count: 1)
        /// Per source position, a factor ≥ 1 on how often the sampler draws it (`ScreenRepeatRule`);
        /// empty: none.
        public var screenFactors: [Double] = []
        public init() {}
    }

    public let source: SampleSource
    public let pipeline: AugmentPipeline
    /// From this epoch on (0-based) images go through the second pipeline instead: Ultralytics'
    /// close_mosaic, the last epochs on whole, unmixed screens. Sampling stays the first's, so
    /// every epoch keeps its batch count.
    public let closing: (fromEpoch: Int, pipeline: AugmentPipeline)?
    public let options: Options
    public let sampler: RepeatFactorSampler
    /// Sees every batch claimed and finished by a worker (tests check the look-ahead with it).
    var observer: ((BatchProduction.Event) -> Void)?

    public init(source: SampleSource, pipeline: AugmentPipeline, options: Options,
                closing: (fromEpoch: Int, pipeline: AugmentPipeline)? = nil) throws {
        guard source.count > 0 else { throw LoaderError(message: "the loader has no samples (is the split empty?)") }
        guard options.batchSize > 0, options.workers >= 0, options.prefetch > 0 else {
            throw LoaderError(message: "batch size and prefetch must be positive and workers ≥ 0 (got \(options.batchSize), \(options.prefetch), \(options.workers))")
        }
        // Every epoch holds each sample at least once, so this keeps every epoch at one batch or more.
        guard !options.dropLast || source.count >= options.batchSize else {
            throw LoaderError(message: "dropLast with \(source.count) samples and batch size \(options.batchSize) leaves no batch; lower the batch size")
        }
        guard options.shard.count >= 1, (0..<options.shard.count).contains(options.shard.index),
              options.shard.count == 1 || (options.dropLast && options.batchSize % options.shard.count == 0) else {
            throw LoaderError(message: "batch size \(options.batchSize) cannot be split over \(options.shard.count) processes: "
                              + "use a batch size that is a multiple of the process count")
        }
        guard options.screenFactors.isEmpty || options.screenFactors.count == source.count,
              options.screenFactors.allSatisfy({ $0.isFinite && $0 >= 1 }) else {
            throw LoaderError(message: "screen factors: \(options.screenFactors.count) for \(source.count) samples; each must be a finite number ≥ 1")
        }
        if let closing, closing.pipeline.outputWidth != pipeline.outputWidth || closing.pipeline.outputHeight != pipeline.outputHeight {
            throw LoaderError(message: "the closing pipeline makes \(closing.pipeline.outputWidth)×\(closing.pipeline.outputHeight) images, the first \(pipeline.outputWidth)×\(pipeline.outputHeight)")
        }
        self.source = source
        self.pipeline = pipeline
        self.closing = closing
        self.options = options
        sampler = RepeatFactorSampler(annotations: (0..<source.count).map { source.annotations(at: $0) },
                                      threshold: pipeline.preset.sampling.repeatThreshold, screenFactors: options.screenFactors)
    }

    /// Source positions of one epoch, in order (repeat-factor sampling, shuffled).
    public func epochOrder(_ epoch: Int) -> [Int] { sampler.epochOrder(seed: options.seed, epoch: epoch) }

    public func batchCount(epoch: Int) -> Int { job(epoch).batchCount }

    /// Starts the workers for one epoch; call `next()` until it returns nil.
    public func epoch(_ epoch: Int) -> EpochBatches {
        EpochBatches(production: production(firstEpoch: epoch, firstBatch: 0, epochs: 1), count: batchCount(epoch: epoch))
    }

    /// Every epoch from `epoch` on, with no pause at epoch boundaries; `next()` never returns nil.
    public func batches(fromEpoch epoch: Int) -> BatchStream {
        BatchStream(production: production(firstEpoch: epoch, firstBatch: 0, epochs: nil))
    }

    /// What `batches(fromEpoch: epoch)` yields from its batch `batch` on — bit-identical images,
    /// equal targets — for resuming from a checkpoint taken after batch `batch − 1`. The earlier
    /// batches are not made. Throws unless `batch` is one of the epoch's batches.
    public func batches(fromEpoch epoch: Int, startingAtBatch batch: Int) throws -> BatchStream {
        guard epoch >= 0 else { throw LoaderError(message: "cannot start the loader at epoch \(epoch): epochs count from 0") }
        let count = batchCount(epoch: epoch)
        guard (0..<count).contains(batch) else {
            throw LoaderError(message: "epoch \(epoch) has batches 0…\(count - 1), so the loader cannot start at batch \(batch); "
                              + "a run that finished epoch \(epoch) resumes at epoch \(epoch + 1), batch 0 (is the batch size or the data the checkpoint's?)")
        }
        return BatchStream(production: production(firstEpoch: epoch, firstBatch: batch, epochs: nil))
    }

    /// Exactly the image (and boxes) that `epoch(epoch)` delivers at `position`, before
    /// normalization: what `screenlab augment preview` shows.
    public func augmentedSample(epoch: Int, position: Int) throws -> (sampleIndex: Int, sample: AnnotatedImage) {
        try job(epoch).augmentedSample(at: position)
    }

    func job(_ epoch: Int) -> BatchJob {
        var seedSource = SeededRandom.stream(seed: options.seed, index: UInt64(epoch) &* 2)
        return BatchJob(order: epochOrder(epoch), epochSeed: seedSource.next(), source: source, pipeline: pipeline(forEpoch: epoch), options: options)
    }

    /// The pipeline epoch `epoch` (0-based) runs through.
    public func pipeline(forEpoch epoch: Int) -> AugmentPipeline {
        guard let closing, epoch >= closing.fromEpoch else { return pipeline }
        return closing.pipeline
    }

    private func production(firstEpoch: Int, firstBatch: Int, epochs: Int?) -> BatchProduction {
        let production = BatchProduction(firstEpoch: firstEpoch, firstBatch: firstBatch, epochs: epochs, prefetch: options.prefetch,
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
        var start = index * options.batchSize, end = min(order.count, start + options.batchSize)
        if options.shard.count > 1 {
            let share = options.batchSize / options.shard.count
            start += options.shard.index * share
            end = start + share
        }
        let width = pipeline.outputWidth, height = pipeline.outputHeight
        var images = Tensor(uninitialized: [end - start, 3, height, width])
        var targets: [[Annotation]] = [], sampleIndices: [Int] = [], unlabeled: [Set<Int>] = []
        for position in start..<end {
            let (sampleIndex, item) = try augmentedSample(at: position)
            let slot = (position - start) * 3 * height * width
            images.withUnsafeMutableBufferPointer { buffer in
                item.image.writeCHW(into: buffer.baseAddress! + slot, normalization: options.normalization)
            }
            targets.append(item.annotations)
            sampleIndices.append(sampleIndex)
            unlabeled.append(item.unlabeledClasses)
        }
        return Batch(images: images, targets: targets, sampleIndices: sampleIndices, unlabeledClasses: unlabeled)
    }

    func augmentedSample(at position: Int) throws -> (sampleIndex: Int, sample: AnnotatedImage) {
        var random = SeededRandom.stream(seed: epochSeed, index: UInt64(position))
        let item = try pipeline.augment(order[position], from: source, random: &random)
        return (source.sampleIndex(at: order[position]), item)
    }
}
