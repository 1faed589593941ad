import Autograd
import Detection
import Export
import Foundation
import Inference
import NN
import Tensor
import TestSupport
import XCTest

/// The exported model run by ONNX Runtime (in Python, `run_onnx.py`) against the Swift paths on
/// the same random images: raw head values against `FusedDetector` and the eval-mode training
/// graph, decoded scores and boxes against `HeadDecoder`. Skips, saying how to enable it, when
/// no Python with onnxruntime and numpy is found.
final class ONNXRuntimeTests: XCTestCase {
    /// SCREENLAB_PYTHON, else python3 on PATH; skips unless it imports onnxruntime and numpy.
    func python() throws -> [String] {
        let configured = ProcessInfo.processInfo.environment["SCREENLAB_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
        let command = configured.map { [$0] } ?? ["/usr/bin/env", "python3"]
        let label = configured ?? "python3"
        let check = try? run(command + ["-c", "import onnxruntime, numpy"])
        guard let check, check.status == 0 else {
            let why = check.map { "cannot import onnxruntime and numpy (\($0.output.split(separator: "\n").last ?? ""))" } ?? "cannot be started"
            throw XCTSkip("""
                ONNX Runtime comparison skipped: \(label) \(why). To run it: `pip install onnxruntime numpy` for that Python, \
                or set SCREENLAB_PYTHON to a Python that has both (e.g. SCREENLAB_PYTHON=/path/to/venv/bin/python).
                """)
        }
        return command
    }

    func run(_ command: [String]) throws -> (status: Int32, output: String) {
        try ChildProcess.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
    }

    /// Runs `model` on `images` in ONNX Runtime; returns each output's float32 values by name.
    func onnxRuntime(_ model: Onnx_ModelProto, images: Tensor, python: [String]) throws -> [String: [Float]] {
        let folder = try ExportFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let modelURL = folder.appendingPathComponent("model.onnx"), inputURL = folder.appendingPathComponent("images.bin")
        try model.serializedData().write(to: modelURL)
        try images.values.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: inputURL)
        let script = try XCTUnwrap(Bundle.module.url(forResource: "run_onnx", withExtension: "py"))
        let result = try run(python + [script.path, modelURL.path, inputURL.path] + images.shape.map(String.init) + [folder.path])
        guard result.status == 0 else {
            XCTFail("run_onnx.py exited with \(result.status):\n\(result.output.suffix(3000))")
            return [:]
        }
        var outputs: [String: [Float]] = [:]
        for output in model.graph.output.map(\.name) {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(output).bin"))
            outputs[output] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        return outputs
    }

    /// max |actual − expected| / max(1, |expected|): absolute for head values and scores (|x| ≲ 10),
    /// relative for boxes, whose pixel coordinates reach hundreds.
    func worstError(_ actual: [Float], _ expected: [Float]) -> Float {
        zip(actual, expected).reduce(0) { max($0, abs($1.0 - $1.1) / max(1, abs($1.1))) }
    }

    func testRawHeadMatchesFusedAndEvalGraphWithin1e4() throws {
        let python = try python()
        for (head, stride4) in [(UIDetectorConfiguration.HeadKind.anchorFree, false), (.anchorFree, true), (.anchored, false)] {
            let detector = try ExportFixtures.model(head: head, stride4: stride4, seed: 7)
            let images = ExportFixtures.images(batch: 2, seed: 11)
            let fused = try FusedDetector(detector)(images)
            let graph = try detector(Tape.noGradient().constant(images)).value
            let model = try ONNXExporter.model(detector, description: ExportFixtures.description(), withPostprocess: false)
            let ort = try XCTUnwrap(onnxRuntime(model, images: images, python: python)["head"])
            let label = "\(head) stride4 \(stride4)"
            XCTAssertEqual(ort.count, fused.count, label)
            XCTAssertLessThanOrEqual(worstError(ort, fused.values), 1e-4, "\(label): ONNX Runtime vs FusedDetector")
            XCTAssertLessThanOrEqual(worstError(ort, graph.values), 1e-4, "\(label): ONNX Runtime vs eval-mode graph")
            XCTAssertGreaterThan(fused.values.map(abs).max() ?? 0, 0.5, "\(label): values this small would make the comparison weak")
        }
    }

    func testDecodedScoresAndBoxesMatchHeadDecoderWithin1e4() throws {
        let python = try python()
        for head in [UIDetectorConfiguration.HeadKind.anchorFree, .anchored] {
            let detector = try ExportFixtures.model(head: head, stride4: false, seed: 9)
            let images = ExportFixtures.images(batch: 2, seed: 13)
            let decoded = try HeadDecoder(configuration: detector.configuration).decode(try FusedDetector(detector)(images), images: 2)
            let model = try ONNXExporter.model(detector, description: ExportFixtures.description(), withPostprocess: true)
            let ort = try onnxRuntime(model, images: images, python: python)
            let scores = try XCTUnwrap(ort["scores"]), boxes = try XCTUnwrap(ort["boxes"])
            let expectedScores = decoded.flatMap(\.probabilities), expectedBoxes = decoded.flatMap(\.boxes)
            XCTAssertEqual(scores.count, expectedScores.count, "\(head)")
            XCTAssertEqual(boxes.count, expectedBoxes.count, "\(head)")
            XCTAssertLessThanOrEqual(worstError(scores, expectedScores), 1e-4, "\(head): scores")
            XCTAssertGreaterThan(expectedScores.max() ?? 0, 0.5, "\(head): scores this small would make the comparison weak")
            XCTAssertLessThanOrEqual(worstError(boxes, expectedBoxes), 1e-4, "\(head): boxes (relative beyond 1 px)")
            // Boxes of more than one size: the decode is exercised, not a constant.
            XCTAssertGreaterThan(Set(expectedBoxes.map { ($0 * 10).rounded() }).count, 100, "\(head)")
        }
    }
}
