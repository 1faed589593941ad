import Data
import Dispatch
import Foundation
import Imaging
import Support

/// Every screen of a `DatasetSource` decoded once and kept in memory (`data.cache: ram`, as
/// Ultralytics' `cache=ram`). A training sample decodes three to four screens (mosaic tiles,
/// copy-paste donors, a mixup partner); on vins-ui that decoding was 40 % of the loader's CPU,
/// which a 2-core machine takes from the training step. The cache holds exactly the images
/// `DatasetSource.load` decodes (read-only: the pipeline's writes copy), so a run gives the same
/// bits with or without it.
public final class DecodedScreenCache: @unchecked Sendable {
    /// By source position; nil where the screen did not decode, so that `load` reads it again and
    /// reports the same error as without a cache (the trainer's `TolerantSource` counts it).
    private let images: [RGBImage?]
    /// Pixel bytes held.
    public let bytes: Int
    /// Screens that did not decode.
    public let failures: Int

    /// Decodes every screen of `source` on `workers` threads (screens interleaved, each written
    /// to its own slot), advancing `progress` once a screen.
    init(decoding source: DatasetSource, workers: Int, progress: ProgressLine?) {
        var images = [RGBImage?](repeating: nil, count: source.count)
        let lock = NSLock()
        let workers = max(1, min(workers, source.count))
        images.withUnsafeMutableBufferPointer { slots in
            let slots = slots
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for position in stride(from: worker, to: source.count, by: workers) {
                    slots[position] = try? source.decode(position)
                    lock.lock()
                    progress?.advance()
                    lock.unlock()
                }
            }
        }
        self.images = images
        bytes = images.reduce(0) { $0 + ($1?.pixels.count ?? 0) }
        failures = images.count(where: { $0 == nil })
    }

    func image(at position: Int) -> RGBImage? { images[position] }

    /// Pixel bytes `source`'s screens take decoded, from the sizes the dataset declares.
    public static func bytesNeeded(for source: DatasetSource) -> Int {
        source.indices.reduce(0) { total, index in
            let sample = source.dataset.samples[index]
            return total + sample.width * sample.height * 3
        }
    }

    /// Why caching `needed` bytes is refused when `available` bytes are free (nil: it fits).
    /// Half of what is available, at most: the trainer, the loader's batches and whatever else
    /// runs on the machine need the rest (Ultralytics keeps a margin the same way).
    public static func refusal(needed: Int, available: Int?) -> String? {
        guard let available else { return "this system does not report its available memory (/proc/meminfo)" }
        guard needed > available / 2 else { return nil }
        return String(format: "the screens need %.2f GB decoded and only %.2f GB of memory is available (at most half of it is used)",
                      Double(needed) / 1e9, Double(available) / 1e9)
    }

    /// Memory the system could give processes now without swapping (Linux's `MemAvailable`), in bytes.
    public static func availableMemory() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }
}
