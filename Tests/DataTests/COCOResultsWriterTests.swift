import Foundation
import XCTest
@testable import Data

/// Predictions written as a COCO results file, parsed back with Foundation's JSON reader
/// (ScreenLab's own results reader lives in Evaluation, above Data).
final class COCOResultsWriterTests: XCTestCase {
    let predictions: [COCOResultsWriter.Prediction] = [
        (sampleIndex: 1, classIndex: 2, box: BoundingBox(x: 0.1 + 0.2, y: 1.0 / 3, width: 2.0 / 3, height: 1e-7), score: 0.123456789012345),
        (sampleIndex: 0, classIndex: 0, box: BoundingBox(x: 0, y: 12, width: 640, height: .leastNonzeroMagnitude), score: 1),
    ]

    /// Ids are kept as JSON values; numbers go through JSONDecoder into Double (exact), not
    /// JSONSerialization (whose NSNumber parse on Linux loses the last digit of 0.30000000000000004).
    struct Entry: Decodable {
        var image_id: ID
        var category_id: ID
        var bbox: [Double]
        var score: Double
    }

    enum ID: Decodable, Equatable {
        case number(Int), name(String)
        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) { self = .number(number) } else { self = .name(try value.decode(String.self)) }
        }
    }

    func entries(_ data: Data) throws -> [Entry] { try JSONDecoder().decode([Entry].self, from: data) }

    func assertExactFields(_ entry: Entry, _ p: COCOResultsWriter.Prediction, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(entry.bbox, [p.box.x, p.box.y, p.box.width, p.box.height], file: file, line: line)   // exact, not within a tolerance
        XCTAssertEqual(entry.score, p.score, file: file, line: line)
    }

    func testCOCOSourceKeepsItsImageAndCategoryIDsAndEveryNumberExactly() throws {
        let dataset = try COCOReader.read(try Fixtures.url("coco-basic/instances.json"))   // images 17, 4; categories 3, 7, 10
        let url = try Fixtures.temporaryFolder(self).appendingPathComponent("results.json")
        try COCOResultsWriter.write(predictions, for: dataset, to: url)
        let parsed = try entries(try Data(contentsOf: url))
        XCTAssertEqual(parsed.count, 2)
        XCTAssertEqual(parsed.map(\.image_id), [.number(4), .number(17)])
        XCTAssertEqual(parsed.map(\.category_id), [.number(10), .number(3)])
        for (entry, p) in zip(parsed, predictions) { assertExactFields(entry, p) }
    }

    func testWithoutCOCOIDsImagesAreNamedByPathAndClassesByName() throws {
        var dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        dataset.classes[0] = "Text \"quoted\" \\ and\ttab"
        let parsed = try entries(try COCOResultsWriter.json(predictions, for: dataset))
        XCTAssertEqual(parsed.map(\.image_id), [.name("images/screen2.png"), .name("images/screen1.png")])
        XCTAssertEqual(parsed.map(\.category_id), [.name("Container"), .name("Text \"quoted\" \\ and\ttab")])
        for (entry, p) in zip(parsed, predictions) { assertExactFields(entry, p) }
    }

    func testEmptyListAndBadPredictionsNameTheEntry() throws {
        let dataset = try YOLOReader.read(try Fixtures.url("yolo-basic"))
        XCTAssertEqual(String(decoding: try COCOResultsWriter.json([], for: dataset), as: UTF8.self), "[]\n")
        var bad = predictions
        bad[1].score = .nan
        XCTAssertThrowsError(try COCOResultsWriter.json(bad, for: dataset)) { XCTAssertTrue("\($0)".hasPrefix("prediction 2: box or score is not finite"), "\($0)") }
        bad = predictions
        bad[0].classIndex = 3
        XCTAssertThrowsError(try COCOResultsWriter.json(bad, for: dataset)) {
            XCTAssertEqual("\($0)", "prediction 1: class index 3 but the dataset has 3 classes")
        }
    }
}
