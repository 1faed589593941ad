import Foundation
import Imaging

/// §5.6's evaluation of the navigation order: "the minimum insertion steps to make our output
/// the same as ground truth", reported as the share of screens in perfect order (paper: 73.7 %
/// of 380 screens), the share with less than one error per 10 elements (90.8 %) and the mean
/// errors per screen (0.67). The paper's truth was experts' orders of the heuristics' own
/// elements; ours is the generator's (`Sample.accessibilityElements`), so the produced elements
/// are first mapped onto the true ones.
public enum OrderEvaluation {
    /// One screen's result.
    public struct Score: Equatable, Sendable {
        /// True elements, and the elements the view produced.
        public var trueElements: Int
        public var producedElements: Int
        /// Minimum insertion steps from the produced order of the true elements to the true order.
        public var insertions: Int
        /// True elements some produced element has exactly (same members).
        public var reproduced: Int
        /// The true elements (positions in the truth) in the order the view reaches them.
        public var producedOrder: [Int]

        public var perfect: Bool { insertions == 0 }
        /// True elements the view never reaches (none of their boxes detected): one step each.
        public var missing: Int { trueElements - producedOrder.count }
        /// Steps to put what the view reaches in order: the paper's experts ordered the elements
        /// a view produced, so a detector's misses did not count there.
        public var orderInsertions: Int { insertions - missing }
    }

    /// Scores `view` (run on the screen's true boxes, or detections indexed like them) against
    /// `truth`: elements as indices into `view.detections`, in the true order.
    ///
    /// Our mapping (the paper's experts ordered the produced elements themselves, so it needed
    /// none): a true element is placed where a reader swiping through the view first meets one
    /// of its members — the produced element's position, then the member's position inside it
    /// (a wrong merge reads its parts in its members' XY-cut order). A true element none of
    /// whose members is in any produced element counts as one step, as an item to insert.
    public static func score(_ view: AccessibilityView, truth: [[Int]]) -> Score {
        var reachedAt: [Int: (element: Int, member: Int)] = [:]
        for (position, element) in view.elements.enumerated() {
            for (memberPosition, member) in element.members.enumerated() where reachedAt[member] == nil {
                reachedAt[member] = (position, memberPosition)
            }
        }
        let firstReached: [(truth: Int, at: (element: Int, member: Int))] = truth.indices.compactMap { t in
            truth[t].compactMap { reachedAt[$0] }.min { ($0.element, $0.member) < ($1.element, $1.member) }.map { (t, $0) }
        }
        let producedOrder = firstReached.sorted { ($0.at.element, $0.at.member, $0.truth) < ($1.at.element, $1.at.member, $1.truth) }.map(\.truth)
        let producedSets = Set(view.elements.map { Set($0.members) })
        let reproduced = truth.filter { !$0.isEmpty && producedSets.contains(Set($0)) }.count
        return Score(trueElements: truth.count, producedElements: view.elements.count,
                     insertions: InsertionDistance.minimumInsertions(producedOrder, truth: Array(truth.indices)),
                     reproduced: reproduced, producedOrder: producedOrder)
    }

    /// The true elements restated over detections, to score a view built on a detector's output
    /// (the paper's condition) rather than on the true boxes: each true box is matched to at
    /// most one detection, greedily by IoU, highest first, at `minimumIoU` or more and whatever
    /// the classes (a Text detected as an Icon is still where the reader meets it); each true
    /// element then names the detections of its matched boxes. Boxes nothing matched drop out of
    /// their elements, and an element left empty counts, when scored, as an item to insert;
    /// detections nothing matched are extra stops that cost nothing unless they split a group.
    public static func truth(_ truth: [[Int]], trueBoxes: [BoundingBox], detections: [ScreenDetection], minimumIoU: Double = 0.5) -> [[Int]] {
        var pairs: [(iou: Double, label: Int, detection: Int)] = []
        for (label, box) in trueBoxes.enumerated() where box.isFinite {
            for (d, detection) in detections.enumerated() where detection.box.isFinite {
                let overlap = box.intersectionArea(detection.box)
                guard overlap > 0 else { continue }
                let iou = overlap / (box.area + detection.box.area - overlap)
                if iou >= minimumIoU { pairs.append((iou, label, d)) }
            }
        }
        pairs.sort { ($0.iou, $1.label, $1.detection) > ($1.iou, $0.label, $0.detection) }
        var detectionOf = [Int?](repeating: nil, count: trueBoxes.count), used = Set<Int>()
        for pair in pairs where detectionOf[pair.label] == nil && !used.contains(pair.detection) {
            detectionOf[pair.label] = pair.detection
            used.insert(pair.detection)
        }
        return truth.map { element in element.compactMap { trueBoxes.indices.contains($0) ? detectionOf[$0] : nil } }
    }

    /// The view with the true elements in the true order instead of its own, to draw with
    /// `AccessibilityWriter.drawn` beside the produced one.
    public static func trueView(_ view: AccessibilityView, truth: [[Int]]) -> AccessibilityView {
        var result = view
        result.elements = truth.filter { !$0.isEmpty && $0.allSatisfy(view.detections.indices.contains) }.map { members in
            let boxes = members.map { view.detections[$0].box }
            return AccessibleElement(kind: members.count == 1 ? view.detections[members[0]].className : "Group", grouping: nil, members: members,
                                     box: boxes.dropFirst().reduce(boxes[0]) { $0.union($1) })
        }
        return result
    }

    /// The paper's numbers over many screens.
    public struct Summary: Equatable, Sendable {
        public var screens: Int
        /// Share of screens with no insertion step (paper: 0.737).
        public var perfectShare: Double
        /// Share with fewer than one step per 10 true elements (paper: 0.908).
        public var underOnePerTenShare: Double
        /// Insertion steps per screen (paper: mean 0.67, max 17, std 1.79).
        public var meanErrors: Double
        public var errorsStandardDeviation: Double
        public var maximumErrors: Int
        /// True and produced elements per screen (paper: 18.7 produced elements).
        public var meanTrueElements: Double
        public var meanProducedElements: Double
        /// Share of all true elements reproduced exactly.
        public var groupAgreement: Double
        /// True elements per screen the view never reaches (0 on true boxes).
        public var meanMissing: Double
        /// Without those: the share of screens whose reached elements are in order, and the steps per screen.
        public var reachedInOrderShare: Double
        public var meanOrderErrors: Double

        public init(_ scores: [Score]) {
            let n = Double(max(scores.count, 1))
            screens = scores.count
            perfectShare = Double(scores.filter(\.perfect).count) / n
            underOnePerTenShare = Double(scores.filter { 10 * $0.insertions < max($0.trueElements, 1) || $0.insertions == 0 }.count) / n
            let errors = scores.map { Double($0.insertions) }
            let mean = errors.reduce(0, +) / n
            meanErrors = mean
            errorsStandardDeviation = (errors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n).squareRoot()
            maximumErrors = scores.map(\.insertions).max() ?? 0
            meanTrueElements = Double(scores.map(\.trueElements).reduce(0, +)) / n
            meanProducedElements = Double(scores.map(\.producedElements).reduce(0, +)) / n
            groupAgreement = Double(scores.map(\.reproduced).reduce(0, +)) / Double(max(scores.map(\.trueElements).reduce(0, +), 1))
            meanMissing = Double(scores.map(\.missing).reduce(0, +)) / n
            reachedInOrderShare = Double(scores.filter { $0.orderInsertions == 0 }.count) / n
            meanOrderErrors = Double(scores.map(\.orderInsertions).reduce(0, +)) / n
        }

        /// A few lines for a terminal or a report, with the paper's figures beside ours.
        public var text: String {
            func percent(_ x: Double) -> String { String(format: "%.1f %%", 100 * x) }
            return """
                screens: \(screens)
                perfect order: \(percent(perfectShare)) of screens (paper: 73.7 %)
                under 1 error per 10 elements: \(percent(underOnePerTenShare)) (paper: 90.8 %)
                errors per screen: mean \(String(format: "%.2f", meanErrors)), std \(String(format: "%.2f", errorsStandardDeviation)), max \(maximumErrors) (paper: 0.67, 1.79, 17)
                elements per screen: \(String(format: "%.1f", meanTrueElements)) true, \(String(format: "%.1f", meanProducedElements)) produced (paper: 18.7 produced)
                true elements reproduced exactly: \(percent(groupAgreement))
                """ + (meanMissing > 0 ? """

                of the errors, missed elements (none of their boxes detected): \(String(format: "%.2f", meanMissing)) per screen
                order of what was found (as the paper's experts scored it): \(percent(reachedInOrderShare)) of screens in order, \(String(format: "%.2f", meanOrderErrors)) errors per screen
                """ : "")
        }
    }
}
