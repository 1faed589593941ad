import Data
import Imaging

/// Where the pipeline gets screens: the primary sample, its mosaic/mixup partners and copy-paste
/// donors all come from one source (one split), so no validation screen leaks into training.
public protocol SampleSource {
    var count: Int { get }
    /// Boxes of the sample at `position` without decoding its image (for sampling and donor indexes).
    func annotations(at position: Int) -> [Annotation]
    /// The decoded image with its boxes, at the image's own resolution.
    func load(_ position: Int) throws -> AnnotatedImage
    /// A stable identity of the sample at `position` for reports (e.g. the dataset's sample index).
    func sampleIndex(at position: Int) -> Int
}

/// Screens already in memory (tests, synthetic data).
public struct InMemorySource: SampleSource {
    public var items: [AnnotatedImage]
    public init(_ items: [AnnotatedImage]) { self.items = items }
    public var count: Int { items.count }
    public func annotations(at position: Int) -> [Annotation] { items[position].annotations }
    public func load(_ position: Int) throws -> AnnotatedImage { items[position] }
    public func sampleIndex(at position: Int) -> Int { position }
}
