import Detection
import Export
import Foundation
import Inference
import NN
import SwiftProtobuf
import Weights
import XCTest

/// The exported ModelProto read back: inputs, outputs, metadata, ops; and the errors a user sees.
final class ExportTests: XCTestCase {
    func metadata(_ model: Onnx_ModelProto) -> [String: String] {
        Dictionary(model.metadataProps.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func dims(_ info: Onnx_ValueInfoProto) -> [String] {
        info.type.tensorType.shape.dim.map { $0.dimParam.isEmpty ? "\($0.dimValue)" : $0.dimParam }
    }

    func testWrittenModelParsesBackWithInputsOutputsAndMetadata() throws {
        let folder = try ExportFixtures.folder()
        let weights = try ExportFixtures.weightsFile(head: .anchorFree, stride4: false, in: folder)
        let out = folder.appendingPathComponent("model.onnx")
        let summary = try ONNXExporter.write(weights: weights, to: out, withPostprocess: false)
        let model = try Onnx_ModelProto(serializedBytes: try Data(contentsOf: out))
        let c = try TrainedDetector.load(contentsOf: weights).model.configuration

        XCTAssertEqual(model.irVersion, 7)
        XCTAssertEqual(model.opsetImport.map(\.version), [13])
        XCTAssertEqual(model.graph.input.map(\.name), ["images"])
        XCTAssertEqual(dims(model.graph.input[0]), ["batch", "3", "96", "64"])
        XCTAssertEqual(model.graph.output.map(\.name), ["head"])
        XCTAssertEqual(dims(model.graph.output[0]), ["batch", "\(c.priorCount)", "\(c.classCount + 4 * 8)"])
        XCTAssertEqual(summary.outputs, ["head"])
        XCTAssertEqual(summary.nodes, model.graph.node.count)

        let m = metadata(model)
        XCTAssertEqual(m["classes"], #"["Icon","Text","Switch"]"#)
        XCTAssertEqual(m["thresholds"], "[0.35,0.5,null]")
        XCTAssertEqual(m["input_height"], "96")
        XCTAssertEqual(m["input_width"], "64")
        XCTAssertEqual(m["normalization_mean"], "[0.485,0.456,0.406]")
        XCTAssertEqual(m["normalization_std"], "[0.229,0.224,0.225]")
        XCTAssertEqual(m["head"], "anchor-free")
        XCTAssertEqual(m["strides"], "[8,16,32]")
        XCTAssertEqual(m["distribution_bins"], "8")
        XCTAssertEqual(m["source_weights"], "detector-anchor-free.slw")
        XCTAssertTrue(m["preprocessing"]?.contains("114") == true, m["preprocessing"] ?? "")
        XCTAssertTrue(m["postprocess"]?.hasPrefix("none") == true, m["postprocess"] ?? "")
        // Every key written is a documented one.
        XCTAssertEqual(Set(m.keys).subtracting(ExportedModelDescription.metadataKeys.map(\.key)), [])
    }

    func testGraphIsTheFoldedNetwork() throws {
        let detector = try ExportFixtures.model(head: .anchorFree, stride4: false, seed: 1)
        let model = try ONNXExporter.model(detector, description: ExportFixtures.description(), withPostprocess: false)
        let ops = model.graph.node.map(\.opType)
        XCTAssertFalse(ops.contains("BatchNormalization"), "batch norm should be folded into the convolutions")
        // ReLU6 (MobileNet's and the towers') is a Clip; Relu appears with the anchored head only.
        XCTAssertTrue(Set(ops).isSubset(of: ["Conv", "Relu", "Clip", "Resize", "Add", "Transpose", "Reshape", "Concat"]), "\(Set(ops))")
        XCTAssertTrue(["Conv", "Clip", "Resize", "Add", "Concat"].allSatisfy(ops.contains), "\(Set(ops))")
        // Depthwise convolutions keep one group per channel.
        let depthwise = try XCTUnwrap(model.graph.node.first { $0.name == "backbone.stage3.0.depthwise" })
        let group = try XCTUnwrap(depthwise.attribute.first { $0.name == "group" })
        XCTAssertGreaterThan(group.i, 1)
        // Single assignment: no value is written twice.
        let written = model.graph.node.flatMap(\.output) + model.graph.initializer.map(\.name) + model.graph.input.map(\.name)
        XCTAssertEqual(Set(written).count, written.count)
        // Every node input is produced somewhere (or is an omitted optional input).
        for node in model.graph.node {
            for input in node.input where !input.isEmpty {
                XCTAssertTrue(written.contains(input), "\(node.name) reads \(input), which nothing writes")
            }
        }
    }

    func testWithPostprocessOutputsScoresAndBoxes() throws {
        for head in [UIDetectorConfiguration.HeadKind.anchorFree, .anchored] {
            let detector = try ExportFixtures.model(head: head, stride4: true, seed: 2)
            let c = detector.configuration
            let model = try ONNXExporter.model(detector, description: ExportFixtures.description(), withPostprocess: true)
            XCTAssertEqual(model.graph.output.map(\.name), ["scores", "boxes"], "\(head)")
            XCTAssertEqual(dims(model.graph.output[0]), ["batch", "\(c.priorCount)", "3"], "\(head)")
            XCTAssertEqual(dims(model.graph.output[1]), ["batch", "\(c.priorCount)", "4"], "\(head)")
            let m = metadata(model)
            XCTAssertEqual(m["strides"], "[4,8,16,32]")
            XCTAssertTrue(m["postprocess"]?.contains("not in the graph: per-class thresholds, NMS") == true, m["postprocess"] ?? "")
            XCTAssertEqual(m["head"], head.rawValue)
        }
    }

    func testDamagedWeightsFileIsRefusedNamingItAndNothingIsWritten() throws {
        let folder = try ExportFixtures.folder()
        let weights = folder.appendingPathComponent("damaged.slw")
        try Data("not a weights file".utf8).write(to: weights)
        let out = folder.appendingPathComponent("model.onnx")
        XCTAssertThrowsError(try ONNXExporter.write(weights: weights, to: out, withPostprocess: false)) { error in
            XCTAssertTrue("\(error)".contains("damaged.slw"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))

        let missing = folder.appendingPathComponent("missing.slw")
        XCTAssertThrowsError(try ONNXExporter.write(weights: missing, to: out, withPostprocess: false)) { error in
            XCTAssertTrue("\(error)".contains("missing.slw"), "\(error)")
        }
    }

    func testWeightsOfAnotherArchitectureAreRefused() throws {
        let folder = try ExportFixtures.folder()
        let weights = folder.appendingPathComponent("reference.slw")
        let tensors = try ExportFixtures.model(head: .anchorFree, stride4: false, seed: 1).stateTensors()
        try WeightsFile(header: ExportFixtures.header(head: .anchorFree, stride4: false, architecture: "reference-detector"),
                        tensors: tensors).write(to: weights)
        XCTAssertThrowsError(try ONNXExporter.write(weights: weights, to: folder.appendingPathComponent("m.onnx"), withPostprocess: false)) { error in
            XCTAssertTrue("\(error)".contains("reference-detector"), "\(error)")
        }
    }

    func testNeverWritesOverTheWeightsFile() throws {
        let folder = try ExportFixtures.folder()
        let weights = try ExportFixtures.weightsFile(head: .anchorFree, stride4: false, in: folder)
        let before = try Data(contentsOf: weights)
        XCTAssertThrowsError(try ONNXExporter.write(weights: weights, to: weights, withPostprocess: false)) { error in
            XCTAssertTrue("\(error)".contains(weights.lastPathComponent), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: weights), before)
    }

    func testUnknownFormatNamesTheKnownOnes() throws {
        XCTAssertEqual(try ExportFormat(parsing: "ONNX"), .onnx)
        XCTAssertEqual(try ExportFormat(parsing: "safetensors"), .safetensors)
        XCTAssertThrowsError(try ExportFormat(parsing: "tflite")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("'tflite'") && text.contains("onnx") && text.contains("safetensors"), text)
        }
    }

    func testClassCountMismatchIsRefused() throws {
        let detector = try ExportFixtures.model(head: .anchorFree, stride4: false, seed: 1)
        var description = ExportFixtures.description()
        description.classes.removeLast()
        XCTAssertThrowsError(try ONNXExporter.model(detector, description: description, withPostprocess: false))
    }
}
