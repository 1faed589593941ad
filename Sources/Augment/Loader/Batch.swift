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
}

public struct LoaderError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
