import Autograd
import Data
import Detection
import Foundation
import Tensor
import XCTest

/// The PyTorch peer's ATSS (Peers/torch-peer/ui_detector.py, `atss_assign`) against
/// ScreenLab's `ATSSAssigner` on the same boxes: the pairs below are what the peer printed for
/// `synthetic_targets(1, 12, 13, seed=5)` (rounded to 0.1 px) plus a 2 px box between the stride-8
/// centres and two overlapping text lines (the first loses every point to the second): both
/// exercise the rescue pass and the highest-IoU rule for points claimed twice.
final class TorchPeerEquivalenceTests: XCTestCase {
    let boxes: [[Double]] = [
        [32.3, 402.6, 221.0, 425.6], [35.3, 77.5, 254.5, 96.9], [63.5, 197.9, 119.4, 221.4], [81.3, 33.7, 135.1, 87.5],
        [0.2, 409.5, 35.9, 444.2], [90.9, 376.2, 130.6, 434.3], [131.9, 66.5, 179.0, 102.5], [218.4, 239.6, 240.8, 297.0],
        [197.5, 121.3, 239.7, 163.5], [34.3, 165.4, 185.6, 341.0], [141.9, 273.1, 254.4, 291.4], [43.8, 49.4, 66.4, 96.4],
        [9.0, 9.0, 11.0, 11.0], [40.0, 100.0, 200.0, 124.0], [50.0, 98.0, 190.0, 126.0],
    ]
    /// (point, ground truth) of every positive, as the peer assigned them.
    let peerPairs: [(Int, Int)] = [
        (0, 12), (204, 3), (205, 3), (206, 3), (236, 3), (237, 3), (238, 3), (261, 11), (262, 11), (263, 11), (268, 3), (269, 3),
        (270, 3), (293, 11), (294, 11), (295, 11), (306, 6), (307, 6), (308, 6), (326, 11), (327, 11), (337, 1), (338, 6), (339, 6),
        (340, 6), (369, 1), (370, 6), (371, 6), (372, 6), (398, 14), (399, 14), (429, 14), (430, 14), (431, 14), (432, 14), (461, 14),
        (462, 14), (463, 14), (538, 8), (539, 8), (570, 8), (571, 8), (572, 8), (602, 8), (603, 8), (604, 8), (635, 8), (810, 2),
        (811, 2), (812, 2), (842, 2), (843, 2), (844, 2), (874, 2), (875, 2), (876, 2), (1051, 7), (1052, 7), (1053, 7), (1083, 7),
        (1084, 7), (1085, 7), (1111, 10), (1112, 10), (1113, 10), (1115, 7), (1116, 7), (1117, 7), (1143, 10), (1144, 10), (1145, 10),
        (1146, 10), (1581, 5), (1582, 5), (1612, 5), (1613, 5), (1614, 5), (1615, 5), (1616, 0), (1644, 5), (1645, 5), (1646, 5),
        (1647, 0), (1648, 0), (1649, 0), (1665, 4), (1666, 4), (1667, 4), (1678, 0), (1679, 0), (1680, 0), (1697, 4), (1698, 4),
        (1699, 4), (1729, 4), (1730, 4), (1731, 4), (2134, 13), (2278, 9), (2279, 9), (2294, 9), (2295, 9), (2310, 9), (2311, 9),
    ]

    func testScreenLabsATSSAssignsWhatThePeerAssigns() {
        let points = PointGrid(inputHeight: 512, inputWidth: 256, strides: [8, 16, 32])
        let truths = boxes.map { Annotation(classIndex: 0, box: BoundingBox(minX: $0[0], minY: $0[1], maxX: $0[2], maxY: $0[3])) }
        let result = ATSSAssigner(priors: PriorBoxes(points: points)).assign(truths)
        let ours = result.targets.positiveIndices.map { ($0, result.targets.groundTruthIndex[$0]) }
        XCTAssertEqual(ours.map(\.0), peerPairs.map(\.0))
        XCTAssertEqual(ours.map(\.1), peerPairs.map(\.1))
        XCTAssertEqual(result.rescuedGroundTruths, [12, 13])  // the 2 px box, and the text line that lost its points to its neighbour
    }

    /// The peer's `DetectionLoss` (quality focal over every logit, GIoU and DFL on the positives,
    /// weighted by the top score) on head values 2·sin(0.37·row + 1.3·column) for one image with
    /// the boxes above (class = index mod 13) printed cls 173.18195, giou 1.7741886, dfl 0.9091629.
    func testScreenLabsLossMatchesThePeersTerms() throws {
        let configuration = UIDetectorConfiguration()
        let count = configuration.priorCount, width = configuration.outputsPerPrior
        var values = [Float](repeating: 0, count: count * width)
        for r in 0..<count { for c in 0..<width { values[r * width + c] = Float(2 * sin(0.37 * Double(r) + 1.3 * Double(c))) } }
        let truths = boxes.enumerated().map {
            Annotation(classIndex: $0.offset % 13, box: BoundingBox(minX: $0.element[0], minY: $0.element[1], maxX: $0.element[2], maxY: $0.element[3]))
        }
        let loss = try DetectionLoss(configuration: configuration, settings: DetectionLossSettings(), classWeights: Array(repeating: 1, count: 13))
        let result = try loss(Tape().constant(Tensor(shape: [count, width], values: values)), targets: [truths], taskAligned: false)
        let terms = Dictionary(uniqueKeysWithValues: result.terms.map { ($0.name, $0.value) })
        XCTAssertEqual(terms["cls"] ?? 0, 173.18195, accuracy: 173.18195 * 1e-4)
        XCTAssertEqual(terms["giou"] ?? 0, 1.7741886, accuracy: 1.7741886 * 1e-4)
        XCTAssertEqual(terms["dfl"] ?? 0, 0.9091629, accuracy: 0.9091629 * 1e-4)
    }
}
