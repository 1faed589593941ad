@testable import Detection
import Support
import XCTest

/// ATSS's nearest-prior search four priors at a time (`TopKSelector.offerNearest`) keeps exactly
/// what offering every prior one by one keeps: the same values and indices, ties included.
final class NearestPriorSelectionTests: XCTestCase {
    func testFourAtATimeKeepsWhatOneByOneKeeps() {
        let points = PointGrid(inputHeight: 512, inputWidth: 256, strides: [8, 16, 32])
        let priors = PriorBoxes(points: points)
        var rng = SeededRandom(seed: 7)
        // Random centres, centres on grid points and halfway between them (equal distances to
        // several priors: ties go to the lower index), and centres off the input.
        var centres: [(Double, Double)] = (0..<200).map { _ in (rng.uniform(-20, 280), rng.uniform(-20, 540)) }
        centres += [(4, 4), (8, 8), (12, 16), (128, 256), (252, 508), (0, 0), (256, 512), (-40, 600)]
        for capacity in [9, 1, 0, 3_000] {
            for (x, y) in centres {
                for range in priors.levelRanges {
                    var oneByOne = TopKSelector(), fourAtATime = TopKSelector()
                    oneByOne.reset(capacity: min(capacity, range.count))
                    fourAtATime.reset(capacity: min(capacity, range.count))
                    for p in range {
                        let dx = Double(priors.centerX[p]) - x, dy = Double(priors.centerY[p]) - y
                        oneByOne.offer(-(dx * dx + dy * dy), index: p)
                    }
                    priors.centerX.withUnsafeBufferPointer { xs in
                        priors.centerY.withUnsafeBufferPointer { ys in
                            fourAtATime.offerNearest(centerX: xs.baseAddress!, centerY: ys.baseAddress!, range: range, x: x, y: y)
                        }
                    }
                    XCTAssertEqual(fourAtATime.indices, oneByOne.indices, "centre (\(x), \(y)), level \(range), k \(capacity)")
                    XCTAssertEqual(fourAtATime.values, oneByOne.values, "centre (\(x), \(y)), level \(range), k \(capacity)")
                }
            }
        }
    }
}
