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
