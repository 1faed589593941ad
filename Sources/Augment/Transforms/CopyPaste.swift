import Foundation
import Data
import Imaging
import Support

/// Copy-paste for box-only data (Ghiasi et al. 2021 use masks; UI elements are rectangles, so
/// the whole box is pasted): crop a labelled element from another screen and paste it on the
/// screen (never on padding) where it covers little of the existing boxes. Donor boxes inside
/// the crop (an icon inside a pasted card) come along, clipped and dropped by the usual rules.
public enum CopyPaste {
    /// The element's box rounded out to whole pixels, with every donor box clipped to it.
    public static func crop(_ donor: AnnotatedImage, element: BoundingBox, rules: AugmentPreset.BoxRules) -> AnnotatedImage? {
        let x0 = max(0, Int(element.minX.rounded(.down))), y0 = max(0, Int(element.minY.rounded(.down)))
        let x1 = min(donor.width, Int(element.maxX.rounded(.up))), y1 = min(donor.height, Int(element.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        var patch = RGBImage(width: x1 - x0, height: y1 - y0)
        let shift = BoxMap(offsetX: Double(-x0), offsetY: Double(-y0))
        Placement.draw(donor.image, mappedBy: shift, into: &patch)
        return AnnotatedImage(image: patch, placing: donor, with: shift, rules: rules)
    }

    /// Pastes `patch` scaled by `scale` with its top-left corner at (x, y); returns the boxes added.
    @discardableResult
    public static func paste(_ patch: AnnotatedImage, scale: Double, atX x: Int, y: Int,
                             into target: inout AnnotatedImage, rules: AugmentPreset.BoxRules) -> [Annotation] {
        let applied = Placement.draw(patch.image, mappedBy: BoxMap(scaleX: scale, scaleY: scale, offsetX: Double(x), offsetY: Double(y)),
                                     into: &target.image)
        let placed = rules.place(patch, with: applied, width: target.width, height: target.height)
        target.annotations += placed.annotations
        target.visibleFractions += placed.fractions
        // The patch may show elements its source does not mark.
        target.unlabeledClasses.formUnion(patch.unlabeledClasses)
        return placed.annotations
    }

    /// A random top-left corner for a `width`×`height` paste that lies wholly inside one of
    /// `regions` (the screen content, not the padding), every whole-pixel position equally likely.
    /// The paste may not cover more than `maxOverlap` of an existing box nor be covered more
    /// than that by one — except a box of a `backgroundClasses` class (a card, a list, a dialog)
    /// that contains the whole paste: an element may sit inside a container, never on a leaf.
    public static func freeSpot(width: Int, height: Int, within regions: [BoundingBox], existing: [Annotation],
                                backgroundClasses: Set<Int>, maxOverlap: Double, attempts: Int,
                                random: inout SeededRandom) -> (x: Int, y: Int)? {
        guard width > 0, height > 0 else { return nil }
        // Per region, the whole-pixel corners that keep the paste inside it.
        let ranges: [(x: ClosedRange<Int>, y: ClosedRange<Int>)] = regions.compactMap { region in
            let x0 = Int(region.minX.rounded(.up)), y0 = Int(region.minY.rounded(.up))
            let x1 = Int(region.maxX.rounded(.down)) - width, y1 = Int(region.maxY.rounded(.down)) - height
            return x1 >= x0 && y1 >= y0 ? (x0...x1, y0...y1) : nil
        }
        let counts = ranges.map { Double($0.x.count * $0.y.count) }
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        for _ in 0..<attempts {
            var pick = random.uniform() * total, chosen = 0
            while chosen < counts.count - 1, pick >= counts[chosen] { pick -= counts[chosen]; chosen += 1 }
            let x = random.int(in: ranges[chosen].x), y = random.int(in: ranges[chosen].y)
            let candidate = BoundingBox(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
            let free = existing.allSatisfy { other in
                (backgroundClasses.contains(other.classIndex) && contains(other.box, candidate))
                    || overlapShare(candidate, other.box) <= maxOverlap
            }
            if free { return (x, y) }
        }
        return nil
    }

    static func contains(_ outer: BoundingBox, _ inner: BoundingBox) -> Bool {
        outer.minX <= inner.minX && outer.minY <= inner.minY && outer.maxX >= inner.maxX && outer.maxY >= inner.maxY
    }

    /// The larger of (intersection / area) over the two boxes.
    static func overlapShare(_ a: BoundingBox, _ b: BoundingBox) -> Double {
        let width = min(a.maxX, b.maxX) - max(a.minX, b.minX), height = min(a.maxY, b.maxY) - max(a.minY, b.minY)
        guard width > 0, height > 0 else { return 0 }
        let intersection = width * height
        return max(a.area > 0 ? intersection / a.area : 1, b.area > 0 ? intersection / b.area : 1)
    }
}

/// Every labelled element of a dataset, drawn with weight (boxes of its class)^−rarityPower so
/// that rare UI types are pasted more often (Screen Recognition augments its rare classes).
public struct DonorIndex {
    public struct Element: Equatable {
        public var sampleIndex: Int
        public var annotationIndex: Int
        public var classIndex: Int
    }

    public let elements: [Element]
    /// Running sum of element weights, for drawing by binary search.
    private let cumulativeWeights: [Double]

    public init(annotations: [[Annotation]], rarityPower: Double) {
        var counts: [Int: Int] = [:]
        var elements: [Element] = []
        for (sampleIndex, boxes) in annotations.enumerated() {
            for (annotationIndex, annotation) in boxes.enumerated() {
                counts[annotation.classIndex, default: 0] += 1
                elements.append(Element(sampleIndex: sampleIndex, annotationIndex: annotationIndex, classIndex: annotation.classIndex))
            }
        }
        var total = 0.0
        cumulativeWeights = elements.map { element in
            total += Self.weight(boxesOfClass: counts[element.classIndex]!, rarityPower: rarityPower)
            return total
        }
        self.elements = elements
    }

    public static func weight(boxesOfClass count: Int, rarityPower: Double) -> Double {
        Foundation.pow(Double(count), -rarityPower)
    }

    public var isEmpty: Bool { elements.isEmpty }

    public func draw(_ random: inout SeededRandom) -> Element? {
        guard let total = cumulativeWeights.last, total > 0 else { return nil }
        let target = random.uniform() * total
        var low = 0, high = cumulativeWeights.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulativeWeights[middle] > target { high = middle } else { low = middle + 1 }
        }
        return elements[low]
    }
}
