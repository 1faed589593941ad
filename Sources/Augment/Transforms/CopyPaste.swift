import Foundation
import Data
import Imaging
import Support

/// Copy-paste for box-only data (Ghiasi et al. 2021 use masks; UI elements are rectangles, so
/// the whole box is pasted): crop a labelled element from another screen and paste it where it
/// covers little of the existing boxes. Donor boxes inside the crop (an icon inside a pasted
/// card) come along, clipped and dropped by the usual rules.
public enum CopyPaste {
    /// The element's box rounded out to whole pixels, with every donor box clipped to it.
    public static func crop(_ donor: AnnotatedImage, element: BoundingBox, rules: AugmentPreset.BoxRules) -> AnnotatedImage? {
        let x0 = max(0, Int(element.minX.rounded(.down))), y0 = max(0, Int(element.minY.rounded(.down)))
        let x1 = min(donor.width, Int(element.maxX.rounded(.up))), y1 = min(donor.height, Int(element.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        var patch = RGBImage(width: x1 - x0, height: y1 - y0)
        let shift = BoxMap(offsetX: Double(-x0), offsetY: Double(-y0))
        Placement.draw(donor.image, mappedBy: shift, into: &patch)
        let placed = rules.place(donor, with: shift, width: patch.width, height: patch.height)
        var result = AnnotatedImage(image: patch, annotations: placed.annotations)
        result.visibleFractions = placed.fractions
        return result
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
        return placed.annotations
    }

    /// A random top-left corner where a `width`×`height` paste lies inside the canvas and neither
    /// covers more than `maxOverlap` of any existing box nor is covered more than that by one.
    public static func freeSpot(width: Int, height: Int, canvasWidth: Int, canvasHeight: Int,
                                existing: [BoundingBox], maxOverlap: Double, attempts: Int,
                                random: inout SeededRandom) -> (x: Int, y: Int)? {
        guard width <= canvasWidth, height <= canvasHeight, width > 0, height > 0 else { return nil }
        for _ in 0..<attempts {
            let x = random.int(in: 0...(canvasWidth - width)), y = random.int(in: 0...(canvasHeight - height))
            let candidate = BoundingBox(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
            if existing.allSatisfy({ overlapShare(candidate, $0) <= maxOverlap }) { return (x, y) }
        }
        return nil
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
