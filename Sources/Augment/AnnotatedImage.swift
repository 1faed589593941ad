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
    /// The parts of the image that show screen pixels, not padding (letterbox bars, the gaps
    /// of a mosaic): copy-paste puts elements only here. The whole image until a transform
    /// draws it onto a larger canvas.
    public var contentRegions: [BoundingBox]
    /// Classes not marked on some screen whose pixels this image shows (`Sample.unlabeledClasses`):
    /// a mosaic, mixup or paste of screens from two sources is unlabeled in what either leaves out.
    public var unlabeledClasses: Set<Int> = []

    public init(image: RGBImage, annotations: [Annotation], unlabeledClasses: Set<Int> = []) {
        self.image = image
        self.annotations = annotations
        self.unlabeledClasses = unlabeledClasses
        visibleFractions = Array(repeating: 1, count: annotations.count)
        contentRegions = [BoundingBox(x: 0, y: 0, width: Double(image.width), height: Double(image.height))]
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
            let box = annotation.box
            let inside = box.minX >= 0 && box.minY >= 0 && box.maxX <= Double(width) && box.maxY <= Double(height)
            // A box already inside keeps its exact numbers (clipping recomputes the size from the corners).
            let visible = inside ? box : box.clipped(toWidth: Double(width), height: Double(height))
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
    /// Always runs the rules, even for the identity map: a source box may stick out of its own image.
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

extension AnnotatedImage {
    /// `image` with the boxes and content regions of `source` moved by `map` (the map that
    /// `Placement.draw` applied) and clipped to the image, and the drop rules applied.
    init(image: RGBImage, placing source: AnnotatedImage, with map: BoxMap, rules: AugmentPreset.BoxRules) {
        let placed = rules.place(source, with: map, width: image.width, height: image.height)
        self.init(image: image, annotations: placed.annotations, unlabeledClasses: source.unlabeledClasses)
        visibleFractions = placed.fractions
        contentRegions = source.contentRegions.compactMap { region in
            let moved = map.apply(region).clipped(toWidth: Double(image.width), height: Double(image.height))
            return moved.area > 0 ? moved : nil
        }
    }

    /// Adds the boxes (with their visible shares) and content regions of `other`, an image
    /// of the same size drawn into this one (mosaic tiles, mixup).
    mutating func merge(boxesAndRegionsOf other: AnnotatedImage) {
        annotations += other.annotations
        visibleFractions += other.visibleFractions
        contentRegions += other.contentRegions
        unlabeledClasses.formUnion(other.unlabeledClasses)
    }
}
