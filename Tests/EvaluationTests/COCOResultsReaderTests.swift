import XCTest
import Data
@testable import Evaluation
import Support

final class COCOResultsReaderTests: XCTestCase {
    let samples = [
        Sample(id: "home", imagePath: "images/home.png", width: 100, height: 200),
        Sample(id: "settings", imagePath: "images/settings.jpg", width: 100, height: 200),
    ]

    func reader(cocoImageIDs: [Int?] = [17, 42], categoryIDs: [Int]? = [3, 8]) -> COCOResultsReader {
        COCOResultsReader(samples: samples, cocoImageIDs: cocoImageIDs, classNames: ["Text", "Icon"], cocoCategoryIDs: categoryIDs)
    }

    func parse(_ json: String, lenient: Bool = false, _ reader: COCOResultsReader? = nil) throws -> PredictionSet {
        try (reader ?? self.reader()).parse(Data(json.utf8), file: "preds.json", lenient: lenient)
    }

    func testIdsByNumberNameAndClassName() throws {
        let set = try parse("""
        [{"image_id": 42, "category_id": 8, "bbox": [1, 2, 3, 4], "score": 0.5},
         {"image_id": "home.png", "category_id": "Text", "bbox": [1.5, 2, 3, 4], "score": 0.25, "id": 9, "area": 12},
         {"image_id": "settings", "category_id": "icon", "bbox": [0, 0, 0, 0], "score": 1},
         {"image_id": "images/home.png", "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.75}]
        """)
        XCTAssertEqual(set.predictions, [
            PredictedBox(imageIndex: 1, classIndex: 1, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), score: 0.5),
            PredictedBox(imageIndex: 0, classIndex: 0, box: BoundingBox(x: 1.5, y: 2, width: 3, height: 4), score: 0.25),
            PredictedBox(imageIndex: 1, classIndex: 1, box: BoundingBox(x: 0, y: 0, width: 0, height: 0), score: 1),
            PredictedBox(imageIndex: 0, classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), score: 0.75),
        ])
        XCTAssertEqual(set.skippedCount, 0)
    }

    /// A results file for the whole dataset scored on one split: entries on the other split's
    /// images are dropped and counted; images of no split are still errors.
    func testEntriesOnImagesOutsideTheSplitAreDroppedAndCounted() throws {
        let other = [Sample(id: "profile", imagePath: "images/profile.png", width: 100, height: 200, cocoImageID: 99)]
        let split = COCOResultsReader(samples: samples, cocoImageIDs: [17, 42], classNames: ["Text", "Icon"], cocoCategoryIDs: [3, 8],
                                      outsideSplit: other, splitName: "val")
        let set = try parse("""
        [{"image_id": 99, "category_id": 8, "bbox": [1, 2, 3, 4], "score": 0.5},
         {"image_id": "home", "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.4},
         {"image_id": "profile.png", "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.3}]
        """, split)
        XCTAssertEqual(set.predictions, [PredictedBox(imageIndex: 0, classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), score: 0.4)])
        XCTAssertEqual(set.outsideSplit, 2)
        XCTAssertEqual(set.skippedCount, 0)
        XCTAssertEqual(set.entries, 3)
        XCTAssertTrue(set.notes.contains("2 detections on images outside split 'val' ignored"), "\(set.notes)")
        XCTAssertThrowsError(try parse(#"[{"image_id": 7, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}]"#, split)) { error in
            XCTAssertTrue("\(error)".contains("image_id 7 is not an image of the dataset (any split)"), "\(error)")
        }
        // Without the rest of the dataset the same file is an error, as before.
        XCTAssertThrowsError(try parse(#"[{"image_id": 99, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}]"#))
    }

    func testBadEntriesNameTheEntryAndValue() {
        let cases: [(String, String)] = [
            (#"{"image_id": 99, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}"#, "image_id 99"),
            (#"{"image_id": "nope.png", "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}"#, "\"nope.png\""),
            (#"{"image_id": 17, "category_id": 5, "bbox": [0, 0, 1, 1], "score": 0.5}"#, "category_id 5"),
            (#"{"image_id": 17, "category_id": "Button", "bbox": [0, 0, 1, 1], "score": 0.5}"#, "\"Button\""),
            (#"{"image_id": 17, "category_id": 3, "bbox": [0, 0, -1, 1], "score": 0.5}"#, "negative size"),
            (#"{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1], "score": 0.5}"#, "bbox"),
            (#"{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": "high"}"#, "\"high\""),
            (#"{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1]}"#, "\"score\""),
            (#"{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": true}"#, "score"),
        ]
        for (entry, needle) in cases {
            let json = #"[{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}, "# + entry + "]"
            XCTAssertThrowsError(try parse(json), entry) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("entry 1"), text)
                XCTAssertTrue(text.contains(needle), "\(text) should mention \(needle)")
                XCTAssertTrue(text.contains("preds.json"), text)
            }
        }
    }

    func testNaNScoresNameTheEntryAndLenientSkipsThem() throws {
        // Python's json.dump writes NaN/Infinity tokens; they are read so the entry can be named.
        let json = #"[{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}, {"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": NaN}, {"image_id": 17, "category_id": 3, "bbox": [0, -Infinity, 1, 1], "score": 0.1}]"#
        XCTAssertThrowsError(try parse(json)) { error in
            XCTAssertTrue("\(error)".contains("entry 1") && "\(error)".contains("NaN"), "\(error)")
        }
        let set = try parse(json, lenient: true)
        XCTAssertEqual(set.predictions.count, 1)
        XCTAssertEqual(set.skipped, ["bad score": 1, "bad bbox": 1])
    }

    func testMalformedJSONGivesLineAndColumn() {
        XCTAssertThrowsError(try parse("[{\"image_id\": 17,\n  \"score\": 0.5,,}]")) { error in
            XCTAssertTrue("\(error)".contains("line 2"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"[{"image_id": 17, "category_id": 3, "bbox": [0, 0"#)) { error in
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"{"image_id": 17}"#)) { error in
            XCTAssertTrue("\(error)".contains("array"), "\(error)")
        }
    }

    func testJSONNumbersAndEscapesAreExact() throws {
        XCTAssertEqual(try JSONParser.parse(#"[0.42936741299104003, -1.5e-3, 125.66004341855162, "a\"b\u00e9\ud83d\ude00"]"#, options: .python),
                       .array([.number(0.42936741299104003), .number(-1.5e-3), .number(125.66004341855162), .string("a\"bé😀")]))
    }

    /// Plain entries take the byte scanner, odd ones (escapes, extra nested keys, exponents,
    /// whitespace, overflow) the general parser: both must give the same values and errors.
    func testFastAndGeneralPathsAgree() throws {
        let entries = [
            #"{"image_id": 17, "category_id": 3, "bbox": [0.42936741299104003, 125.66004341855162, 1e1, 2.5E-1], "score": 0.1}"#,
            #"{"score":0.30000000000000004,"bbox":[ -0.0 ,1,2,3 ],"category_id":"Icon","image_id":"settings","id":7,"area":6}"#,
            #"{"image_id": "home.png", "category_id": 8, "bbox": [1, 2, 3, 4], "score": 5e-324, "segmentation": [[1, 2, {"a": null}]]}"#,
            #"{"image_id": 42, "category_id": 3, "bbox": [1, 2, 3, 4], "score": 0.7, "image_id": 17}"#,
        ]
        let set = try parse("[\n  " + entries.joined(separator: ",\n  ") + "\n]\n")
        XCTAssertEqual(set.predictions, [
            PredictedBox(imageIndex: 0, classIndex: 0, box: BoundingBox(x: 0.42936741299104003, y: 125.66004341855162, width: 10, height: 0.25), score: 0.1),
            PredictedBox(imageIndex: 1, classIndex: 1, box: BoundingBox(x: 0, y: 1, width: 2, height: 3), score: 0.30000000000000004),
            PredictedBox(imageIndex: 0, classIndex: 1, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), score: .leastNonzeroMagnitude),
            PredictedBox(imageIndex: 0, classIndex: 0, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), score: 0.7),
        ], "a repeated key: the last one wins, as in the general parser")
        for entry in entries {
            let general = try JSONParser.parse(entry, options: .python)
            let fast = Array(entry.utf8).withUnsafeBytes { bytes in
                var parser = JSONParser(bytes: bytes, options: .python)
                return parser.resultsEntry()
            }
            if entry.contains("\\u") { XCTAssertNil(fast, "escapes take the general path"); continue }
            guard case .object = general, let fast else { return XCTFail("fast path refused \(entry)") }
            XCTAssertEqual(fast.imageID, general["image_id"])
            XCTAssertEqual(fast.categoryID, general["category_id"])
            XCTAssertEqual(fast.score, Self.double(general["score"]))
            XCTAssertEqual([fast.box.x, fast.box.y, fast.box.width, fast.box.height],
                           { if case .array(let v) = general["bbox"]! { return v.map { Self.double($0)! } }; return [] }())
        }
        // Values the fast path leaves to the general one still give the general errors.
        XCTAssertThrowsError(try parse(#"[{"image_id": 17, "category_id": 3, "bbox": [0, 1e999, 1, 1], "score": 0.5}]"#)) { error in
            XCTAssertTrue("\(error)".contains("entry 0") && "\(error)".contains("four finite numbers, got [0, Infinity, 1, 1]"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"[{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5} {"image_id": 17}]"#)) { error in
            XCTAssertTrue("\(error)".contains("not valid JSON: line 1") && "\(error)".contains("expected ',' or ']'"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"[{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5}] x"#)) { error in
            XCTAssertTrue("\(error)".contains("unexpected text after the JSON value"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"[{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0x1p3}]"#)) { error in
            XCTAssertTrue("\(error)".contains("not valid JSON"), "hex is not JSON: \(error)")
        }
        XCTAssertEqual(try parse(" [ ] ").entries, 0)
    }

    static func double(_ value: JSONValue?) -> Double? { value?.doubleValue }

    func testLenientSkipsAndCountsByReason() throws {
        let set = try parse("""
        [{"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5},
         {"image_id": 99, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5},
         {"image_id": 98, "category_id": 3, "bbox": [0, 0, 1, 1], "score": 0.5},
         {"image_id": 17, "category_id": "Button", "bbox": [0, 0, 1, 1], "score": 0.5},
         {"image_id": 17, "category_id": 3, "bbox": [0, 0, 1, -2], "score": 0.5}]
        """, lenient: true)
        XCTAssertEqual(set.predictions.count, 1)
        XCTAssertEqual(set.entries, 5)
        XCTAssertEqual(set.skipped, ["unknown image": 2, "unknown class": 1, "negative size": 1])
    }

    func testWithoutCOCOIdsNumbersAreClassIndicesAndImagesNeedNames() throws {
        let plain = reader(cocoImageIDs: [nil, nil], categoryIDs: nil)
        let set = try parse(#"[{"image_id": "home", "category_id": 1, "bbox": [0, 0, 1, 1], "score": 0.5}]"#, plain)
        XCTAssertEqual(set.predictions.first?.classIndex, 1)
        XCTAssertFalse(set.notes.isEmpty, "the report says how numeric categories were read")
        XCTAssertThrowsError(try parse(#"[{"image_id": 17, "category_id": 1, "bbox": [0, 0, 1, 1], "score": 0.5}]"#, plain)) { error in
            XCTAssertTrue("\(error)".contains("file names"), "\(error)")
        }
    }

    func testAmbiguousFileNamesAreRejected() {
        let twins = [Sample(id: "a/x", imagePath: "a/x.png", width: 1, height: 1), Sample(id: "b/x", imagePath: "b/x.png", width: 1, height: 1)]
        let reader = COCOResultsReader(samples: twins, cocoImageIDs: [nil, nil], classNames: ["Text"], cocoCategoryIDs: nil)
        XCTAssertThrowsError(try reader.parse(Data(#"[{"image_id": "x.png", "category_id": "Text", "bbox": [0, 0, 1, 1], "score": 0.5}]"#.utf8),
                                              file: "p.json", lenient: false)) { error in
            XCTAssertTrue("\(error)".contains("more than one image"), "\(error)")
        }
        XCTAssertNoThrow(try reader.parse(Data(#"[{"image_id": "b/x.png", "category_id": "Text", "bbox": [0, 0, 1, 1], "score": 0.5}]"#.utf8),
                                          file: "p.json", lenient: false))
    }
}
