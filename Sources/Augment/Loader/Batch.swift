import Data
import Tensor

/// One training batch as the trainer consumes it.
public struct Batch {
    /// [N, 3, H, W], normalized like inference input.
    public var images: Tensor
    /// Boxes per image in input pixels (after letterbox and augmentation).
    public var targets: [[Annotation]]
    /// The primary sample of each image (mosaic/mixup partners and paste donors are not listed).
    public var sampleIndices: [Int]
    /// Per image, the classes it does not mark (`AnnotatedImage.unlabeledClasses`); empty sets
    /// unless the run trains on two datasets.
    public var unlabeledClasses: [Set<Int>]

    public init(images: Tensor, targets: [[Annotation]], sampleIndices: [Int], unlabeledClasses: [Set<Int>]? = nil) {
        self.images = images
        self.targets = targets
        self.sampleIndices = sampleIndices
        self.unlabeledClasses = unlabeledClasses ?? Array(repeating: [], count: targets.count)
    }
}

public struct LoaderError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
