import Data
import Detection
import Evaluation
import Foundation
import Support
import Tensor
import Weights
import XCTest
import TestSupport
@testable import Inference

final class InferenceTests: XCTestCase {
    func folder() throws -> URL {
        try TestFolders.make("inference")
    }

    func header(_ classes: [String], architecture: String = "ui-detector", options: [String: String] = ["width_multiplier": "0.25", "fpn_channels": "8", "head_convolutions": "1"]) -> WeightsHeader {
        WeightsHeader(architecture: ModelArchitecture(name: architecture, options: options), input: InputSpec(width: 32, height: 64),
                      normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]), classes: classes,
                      provenance: Provenance(created: "2026-11-24T00:00:00Z"))
    }

    func model(classes: Int) throws -> UIDetector {
        try UIDetector(configuration: UIDetectorConfiguration(options: ["width_multiplier": "0.25", "fpn_channels": "8", "head_convolutions": "1"],
                                                              classCount: classes, inputHeight: 64, inputWidth: 32), seed: 4)
    }

    func testLoadsWhatTrainingWritesAndRebuildsTheSameModel() throws {
        let url = try folder().appendingPathComponent("m.slw")
        let source = try model(classes: 2)
        try WeightsFile(header: header(["Icon", "Text"]), tensors: source.stateTensors()).write(to: url)
        let loaded = try TrainedDetector.load(contentsOf: url)
        XCTAssertEqual(loaded.classes, ["Icon", "Text"])
        XCTAssertEqual(loaded.model.configuration.inputWidth, 32)
        XCTAssertEqual(loaded.normalization.std, [0.25, 0.25, 0.25])
        for ((name, a), (_, b)) in zip(loaded.model.stateTensors(), source.stateTensors()) { XCTAssertEqual(a.values, b.values, name) }
        XCTAssertFalse(loaded.model.isTraining, "loaded for inference: eval mode")
        XCTAssertEqual(loaded.storedThresholds, [nil, nil])
    }

    func testRefusesAnotherArchitectureAndTensorsThatDoNotFit() throws {
        let base = try folder()
        let reference = base.appendingPathComponent("reference.slw")
        try WeightsFile(header: header(["Icon"], architecture: "reference-detector", options: [:]), tensors: model(classes: 1).stateTensors()).write(to: reference)
        XCTAssertThrowsError(try TrainedDetector.load(contentsOf: reference)) { error in
            XCTAssertTrue("\(error)".contains("architecture 'reference-detector' is not one ScreenLab can run"), "\(error)")
        }
        // Weights of a 3-class model under a 2-class header: the head's shapes differ.
        let mismatched = base.appendingPathComponent("mismatched.slw")
        try WeightsFile(header: header(["Icon", "Text"]), tensors: model(classes: 3).stateTensors()).write(to: mismatched)
        XCTAssertThrowsError(try TrainedDetector.load(contentsOf: mismatched)) { error in
            XCTAssertTrue("\(error)".contains("head.outputs.0"), "\(error)")
        }
        let badOption = base.appendingPathComponent("option.slw")
        try WeightsFile(header: header(["Icon"], options: ["fpn_channels": "99999999999"]), tensors: model(classes: 1).stateTensors()).write(to: badOption)
        XCTAssertThrowsError(try TrainedDetector.load(contentsOf: badOption)) { error in
            XCTAssertTrue("\(error)".contains("fpn_channels"), "\(error)")
        }
    }

    func testPredictionsJSONNamesFilesAndClassesAndSortsByImageThenScore() throws {
        let images = [URL(fileURLWithPath: "/screens/a.png"), URL(fileURLWithPath: "/screens/b \"quoted\".jpg")]
        let predictions = [
            PredictedBox(imageIndex: 1, classIndex: 0, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), score: 0.5),
            PredictedBox(imageIndex: 0, classIndex: 1, box: BoundingBox(x: 10.126, y: 20, width: 30, height: 40), score: 0.25),
            PredictedBox(imageIndex: 0, classIndex: 0, box: BoundingBox(x: 0, y: 0, width: 5, height: 5), score: 0.75),
        ]
        let json = PredictionWriter.json(predictions, images: images, classes: ["Icon", "Text"])
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        XCTAssertEqual(parsed.map { $0["image_id"] as? String }, ["a", "a", "b \"quoted\""])
        XCTAssertEqual(parsed.map { $0["score"] as? Double }, [0.75, 0.25, 0.5])
        XCTAssertEqual(parsed[1]["category_name"] as? String, "Text")
        XCTAssertEqual(parsed[1]["category_id"] as? Int, 1)
        XCTAssertEqual(parsed[1]["bbox"] as? [Double], [10.13, 20, 30, 40])  // two decimals: a hundredth of a pixel
        XCTAssertEqual(parsed[2]["file_name"] as? String, "b \"quoted\".jpg")
    }

    /// Unique ids: stems, then file names, then folders as far up as it takes, then -2, -3.
    func testImageIDsStayUniqueWhereStemsCollide() {
        let urls = ["/s/d1/a.jpg", "/s/d2/a.jpg", "/s/d1/a.png", "/s/b.png", "/s/b.png", "/s/..png"].map { URL(fileURLWithPath: $0) }
        XCTAssertEqual(PredictionWriter.imageIDs(urls), ["d1_a.jpg", "d2_a.jpg", "a.png", "s_b.png", "s_b.png-2", "_.png"])
        XCTAssertEqual(PredictionWriter.imageIDs([URL(fileURLWithPath: "/x/a.png"), URL(fileURLWithPath: "/x/c.png")]), ["a", "c"])
    }
}
