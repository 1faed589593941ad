import Data
import Imaging
import Support

/// The screens of one split of a dataset, decoded from disk on demand (by the loader's workers),
/// or kept decoded in memory (`cachingDecodedScreens`).
public struct DatasetSource: SampleSource {
    public let dataset: Dataset
    /// Position → index into `dataset.samples`.
    public let indices: [Int]
    /// The decoded screens, when kept in memory; nil: each `load` decodes from disk.
    public private(set) var cache: DecodedScreenCache?

    /// `split` nil takes every sample.
    public init(dataset: Dataset, split: String?) throws {
        self.dataset = dataset
        if let split {
            guard let indices = dataset.splits[split] else {
                throw DatasetError.unknownSplit(split, available: dataset.splits.keys.sorted())
            }
            self.indices = indices
        } else {
            indices = Array(dataset.samples.indices)
        }
    }

    public var count: Int { indices.count }
    public func annotations(at position: Int) -> [Annotation] { dataset.samples[indices[position]].annotations }
    public func sampleIndex(at position: Int) -> Int { indices[position] }

    /// This source with every screen decoded once, on `workers` threads, and kept in memory
    /// (see `DecodedScreenCache`; check `DecodedScreenCache.refusal` first).
    public func cachingDecodedScreens(workers: Int, progress: ProgressLine? = nil) -> DatasetSource {
        var cached = self
        cached.cache = DecodedScreenCache(decoding: self, workers: workers, progress: progress)
        return cached
    }

    /// `data.cache: ram` as a run and `bench loader --cache ram` do it: this source's screens
    /// (`role`: "training", say) decoded with a progress line and a line saying what was kept —
    /// or, when `DecodedScreenCache.refusal` refuses them, this source unchanged and the reason.
    public func keepingDecodedScreens(role: String, workers: Int, showProgress: Bool = true,
                                      available: Int? = DecodedScreenCache.availableMemory())
        -> (source: DatasetSource, report: String, refused: Bool) {
        if let refusal = DecodedScreenCache.refusal(needed: DecodedScreenCache.bytesNeeded(for: self), available: available) {
            return (self, "data.cache: ram refused for the \(role) screens: \(refusal)", true)
        }
        let clock = Stopwatch()
        let progress = ProgressLine("decoding \(count) \(role) screens into memory", total: count, unit: "screens", enabled: showProgress)
        let cached = cachingDecodedScreens(workers: workers, progress: progress)
        progress.finish()
        let cache = cached.cache!
        let report = String(format: "data.cache: ram: %d %@ screens decoded in %.1f s, %.2f GB", count - cache.failures, role,
                            clock.seconds, Double(cache.bytes) / 1e9)
            + (cache.failures == 0 ? "" : "; \(cache.failures) did not decode and are read from disk as they are drawn (reported there)")
        return (cached, report, false)
    }

    public func load(_ position: Int) throws -> AnnotatedImage {
        let sample = dataset.samples[indices[position]]
        let image = try cache?.image(at: position) ?? decode(position)
        return AnnotatedImage(image: image, annotations: sample.annotations, unlabeledClasses: Set(sample.unlabeledClasses ?? []))
    }

    /// The screen at `position` read from disk, its size checked against the dataset's.
    func decode(_ position: Int) throws -> RGBImage {
        let sample = dataset.samples[indices[position]]
        let url = dataset.imageURL(of: sample)
        let image = try ImageIO.read(url)
        // Boxes are in the pixels the dataset declares; a different decoded size would misplace every box.
        guard image.width == sample.width, image.height == sample.height else {
            throw DatasetError.unreadable(file: url.path, line: nil, reason:
                "decoded \(image.width)×\(image.height) but the dataset declares \(sample.width)×\(sample.height); run `screenlab data check`")
        }
        return image
    }
}
