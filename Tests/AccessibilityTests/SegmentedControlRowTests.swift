import XCTest
@testable import Accessibility

final class SegmentedControlRowTests: XCTestCase {
    /// Fig. 7 left: the detector found two segments of three; the third's Text is on their row.
    func testTextOnTheRowOfSegmentsBecomesASegmentAndTextInsideJoinsItsSegment() {
        let screen = [
            detection("Segmented Control", 20, 100, 100, 30),   // 0
            detection("Text", 40, 105, 60, 20),                  // 1: inside 0
            detection("Segmented Control", 130, 100, 100, 30),  // 2
            detection("Text", 260, 106, 60, 18),                 // 3: the missed segment
            detection("Text", 40, 200, 200, 20),                 // 4: another row
        ]
        let result = SegmentedControlRow.apply(singles(screen))
        XCTAssertEqual(memberSets(result), [[0, 1], [2], [3], [4]])
        XCTAssertEqual(result.map(\.kind), ["Segmented Control", "Segmented Control", "Segmented Control", "Text"])
        XCTAssertEqual(result.map(\.labelHint), ["segment 1 of 3", "segment 2 of 3", "segment 3 of 3", nil])
        XCTAssertEqual(result[2].grouping, .segmentedControlRow)
        XCTAssertNil(result[3].grouping)
    }

    func testWithoutSegmentedControlsNothingChanges() {
        let screen = [detection("Text", 0, 0, 50, 10), detection("Icon", 60, 0, 10, 10)]
        XCTAssertEqual(SegmentedControlRow.apply(singles(screen)), singles(screen))
    }

    func testTwoRowsOfSegmentsAreCountedSeparately() {
        let screen = [
            detection("Segmented Control", 0, 0, 100, 30), detection("Segmented Control", 110, 0, 100, 30),
            detection("Segmented Control", 0, 100, 100, 30), detection("Segmented Control", 110, 100, 100, 30),
            detection("Segmented Control", 220, 100, 100, 30),
        ]
        XCTAssertEqual(SegmentedControlRow.apply(singles(screen)).map(\.labelHint),
                       ["segment 1 of 2", "segment 2 of 2", "segment 1 of 3", "segment 2 of 3", "segment 3 of 3"])
    }
}
