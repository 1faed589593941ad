import Data
import Imaging

/// An image with its boxes, as it flows through the augmentation pipeline.
public struct AnnotatedImage: Equatable {
    public var image: RGBImage
    public var annotations: [Annotation]
    /// Per annotation: the share of the element's full area still visible after every clip so
    /// far. Area ratios survive the pipeline's axis-aligned scalings unchanged, so the product
    /// of each step's visible share is the visible share of the original element.
    public var visibleFractions: [Double]

    public init(image: RGBImage, annotations: [Annotation]) {
        self.image = image
        self.annotations = annotations
        visibleFractions = Array(repeating: 1, count: annotations.count)
    }

    public var width: Int { image.width }
    public var height: Int { image.height }
}

/// An axis-aligned map x' = scaleX·x + offsetX, y' = scaleY·y + offsetY (scales > 0):
/// the only geometry the pipeline applies to boxes, apart from the horizontal flip.
public struct BoxMap: Equatable {
    public var scaleX: Double, scaleY: Double, offsetX: Double, offsetY: Double

    public init(scaleX: Double = 1, scaleY: Double = 1, offsetX: Double = 0, offsetY: Double = 0) {
        self.scaleX = scaleX; self.scaleY = scaleY; self.offsetX = offsetX; self.offsetY = offsetY
    }

    public static let identity = BoxMap()

    /// This map, then `next`.
    public func followed(by next: BoxMap) -> BoxMap {
        BoxMap(scaleX: next.scaleX * scaleX, scaleY: next.scaleY * scaleY,
               offsetX: next.scaleX * offsetX + next.offsetX, offsetY: next.scaleY * offsetY + next.offsetY)
    }

    public func apply(_ box: BoundingBox) -> BoundingBox {
        BoundingBox(x: box.x * scaleX + offsetX, y: box.y * scaleY + offsetY,
                    width: box.width * scaleX, height: box.height * scaleY)
    }
}

extension AugmentPreset.BoxRules {
    /// Clips `mapped` (boxes already moved into a `width`×`height` canvas, possibly sticking
    /// out) and drops those that are no longer worth learning from: visible share of the
    /// original area below `minVisibleFraction`, or visible width or height below `minSide`.
    /// `fractions` holds each box's visible share before this step and is updated.
    public func clipAndDrop(_ mapped: [Annotation], fractions: [Double], width: Int, height: Int)
        -> (annotations: [Annotation], fractions: [Double]) {
        var kept: [Annotation] = [], keptFractions: [Double] = []
        kept.reserveCapacity(mapped.count); keptFractions.reserveCapacity(mapped.count)
        for (annotation, before) in zip(mapped, fractions) {
            let visible = annotation.box.clipped(toWidth: Double(width), height: Double(height))
            guard visible.width >= minSide, visible.height >= minSide, visible.width > 0, visible.height > 0 else { continue }
            let full = annotation.box.area
            let fraction = full > 0 ? before * visible.area / full : 0
            // A small tolerance so that floating-point noise never drops an untouched box.
            guard fraction >= minVisibleFraction - 1e-9 else { continue }
            var clipped = annotation
            clipped.box = visible
            kept.append(clipped)
            keptFractions.append(min(fraction, 1))
        }
        return (kept, keptFractions)
    }

    /// Maps every box of `source` with `map` into a canvas of the given size, then clips and drops.
    func place(_ source: AnnotatedImage, with map: BoxMap, width: Int, height: Int)
        -> (annotations: [Annotation], fractions: [Double]) {
        let mapped = source.annotations.map { annotation -> Annotation in
            var moved = annotation
            moved.box = map.apply(annotation.box)
            return moved
        }
        return clipAndDrop(mapped, fractions: source.visibleFractions, width: width, height: height)
    }
}
