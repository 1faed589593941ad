import Augment
import Foundation
import Support

/// Loader throughput, measured the way the trainer sees it, and training fed by the loader.
/// The requirement is loader ≥ 3× the detector's training throughput, so training never waits.
public struct LoaderBenchmark {
    /// Batches taken from a running loader as fast as they come.
    public struct Result: CustomStringConvertible {
        public var workers: Int
        public var batchSize: Int
        public var images: Int
        public var seconds: Double
        public var imagesPerSecond: Double { seconds > 0 ? Double(images) / seconds : 0 }

        public func ratio(toTrainingImagesPerSecond training: Double) -> Double { imagesPerSecond / training }

        public var description: String {
            String(format: "%d images in %.2f s with %d worker%@ (batch %d): %.1f images/s", images, seconds, workers,
                   workers == 1 ? "" : "s", batchSize, imagesPerSecond)
        }
    }

    /// Training steps that each consume the loader's next batch.
    public struct FedResult: CustomStringConvertible {
        public var steps: Int
        public var images: Int
        /// Time the trainer spent waiting in the loader's `next()`.
        public var waitSeconds: Double
        /// Time spent in the training steps.
        public var trainSeconds: Double
        public var seconds: Double { waitSeconds + trainSeconds }
        public var imagesPerSecond: Double { seconds > 0 ? Double(images) / seconds : 0 }
        /// Share of the time the trainer waited for data (0 = the loader always had the next batch ready).
        public var waitShare: Double { seconds > 0 ? waitSeconds / seconds : 0 }

        public var description: String {
            String(format: "%d steps, %d images in %.2f s: %.1f images/s; waited for data %.2f s (%.1f%% of the time)",
                   steps, images, seconds, imagesPerSecond, waitSeconds, 100 * waitShare)
        }
    }

    /// Target ratio of loader to training throughput (issue: "at least 3×").
    public static let requiredRatio = 3.0

    /// Takes batches for about `seconds` (at least two batches), across epochs if needed. The
    /// first batch, which includes starting the workers, is not timed.
    public static func run(_ loader: DataLoader, seconds: Double, progress: Bool = true) throws -> Result {
        let batches = loader.batches(fromEpoch: 0)
        defer { batches.cancel() }
        guard try batches.next() != nil else { throw BenchmarkError(message: "the loader produced no batch") }
        let plannedSeconds = max(1, Int(seconds.rounded()))
        let line = ProgressLine("loader", total: plannedSeconds, unit: "s", enabled: progress)
        let clock = Stopwatch()
        var images = 0, taken = 0
        while clock.seconds < seconds || taken < 2 {
            guard let (_, _, batch) = try batches.next() else { break }
            images += batch.sampleIndices.count
            taken += 1
            let shown = min(Int(clock.seconds), plannedSeconds)
            if shown > line.done { line.advance(by: shown - line.done, detail: String(format: "%.1f images/s", Double(images) / clock.seconds)) }
        }
        let total = clock.seconds
        line.finish(detail: String(format: "%.1f images/s", Double(images) / total))
        return Result(workers: loader.options.workers, batchSize: loader.options.batchSize, images: images, seconds: total)
    }

    /// `steps` calls of `train`, each on the loader's next batch (across epochs), after one
    /// untimed warm-up step that also lets the workers start. Waiting for a batch and training
    /// are timed apart: with a loader fast enough the wait share is close to 0.
    public static func feed(_ loader: DataLoader, steps: Int, progress: Bool = true,
                            train: (Batch) throws -> Void) throws -> FedResult {
        let batches = loader.batches(fromEpoch: 0)
        defer { batches.cancel() }
        func nextBatch() throws -> Batch {
            guard let (_, _, batch) = try batches.next() else { throw BenchmarkError(message: "the loader stopped") }
            return batch
        }
        try train(try nextBatch())
        let line = ProgressLine("training fed by the loader", total: steps, unit: "steps", enabled: progress)
        var result = FedResult(steps: steps, images: 0, waitSeconds: 0, trainSeconds: 0)
        for _ in 0..<steps {
            let waiting = Stopwatch()
            let batch = try nextBatch()
            result.waitSeconds += waiting.seconds
            let training = Stopwatch()
            try train(batch)
            result.trainSeconds += training.seconds
            result.images += batch.sampleIndices.count
            line.advance(detail: String(format: "waited %.1f%%", 100 * result.waitShare))
        }
        line.finish(detail: String(format: "waited %.1f%%", 100 * result.waitShare))
        return result
    }
}
