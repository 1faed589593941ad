import Foundation
import Support

/// Loader throughput, measured the way the trainer sees it: batches taken from a running
/// loader as fast as they come (the first batch, which includes starting the workers, is not
/// timed). The requirement is ≥ 3× the detector's training throughput, so training never waits.
public struct LoaderBenchmark {
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

    /// Target ratio of loader to training throughput (issue: "at least 3×").
    public static let requiredRatio = 3.0

    /// Takes batches for about `seconds` (at least two batches), across epochs if needed.
    public static func run(_ loader: DataLoader, seconds: Double, progress: Bool = true) throws -> Result {
        var epoch = 0
        var batches = loader.epoch(epoch)
        guard try batches.next() != nil else { throw LoaderError(message: "the loader produced no batch") }
        let plannedSeconds = max(1, Int(seconds.rounded()))
        let line = ProgressLine("loader", total: plannedSeconds, unit: "s", enabled: progress)
        let start = DispatchTime.now().uptimeNanoseconds
        var images = 0, taken = 0
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        while elapsed() < seconds || taken < 2 {
            guard let batch = try batches.next() else {
                epoch += 1
                batches = loader.epoch(epoch)
                continue
            }
            images += batch.sampleIndices.count
            taken += 1
            let shown = min(Int(elapsed()), plannedSeconds)
            if shown > line.done { line.advance(by: shown - line.done, detail: String(format: "%.1f images/s", Double(images) / elapsed())) }
        }
        let total = elapsed()
        line.finish(detail: String(format: "%.1f images/s", Double(images) / total))
        return Result(workers: loader.options.workers, batchSize: loader.options.batchSize, images: images, seconds: total)
    }
}
