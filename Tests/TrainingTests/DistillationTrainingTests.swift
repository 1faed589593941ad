import Data
import Detection
import Foundation
import TestSupport
import Weights
import XCTest
@testable import Training

/// `distill:` in an experiment: a run learns from a teacher run's outputs, deterministically,
/// `run:NAME` names the teacher, and a teacher whose outputs do not line up is refused by key.
final class DistillationTrainingTests: XCTestCase {
    func testAStudentTrainsFromATeacherRunDeterministically() throws {
        let teacherFile = try TinyExperiment.write(name: "teacher")
        let runs = teacherFile.deletingLastPathComponent().appendingPathComponent("runs")
        var options = TinyExperiment.options()
        options.runsFolder = runs
        XCTAssertEqual(try Trainer.start(experiment: teacherFile, overrides: ["epochs=1"], options: options).train()["status"] as? String, "finished")

        let studentFile = try TinyExperiment.write(name: "student", extra: "distill: {teacher: run:teacher, temperature: 4}")
        var lines: [String] = []
        options.log = { lines.append($0) }
        func train(_ overrides: [String] = []) throws -> (Trainer, [String: [Float]]) {
            let trainer = try Trainer.start(experiment: studentFile, overrides: ["epochs=1"] + overrides, options: options)
            XCTAssertEqual(try trainer.train()["status"] as? String, "finished")
            return (trainer, Dictionary(uniqueKeysWithValues: trainer.setup.model.stateTensors().map { ($0.name, $0.tensor.values) }))
        }
        let (student, weights) = try train()
        XCTAssertTrue(lines.contains { $0.hasPrefix("distill.teacher run:teacher is ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("distill from ") }, "\(lines)")
        // The resolved teacher is kept with the run, so a resume distills from the same file.
        let overrides = try String(contentsOf: student.run.url.appendingPathComponent("overrides.txt"), encoding: .utf8)
        XCTAssertTrue(overrides.contains("distill.teacher=") && overrides.contains("/teacher/"), overrides)
        let metrics = try String(contentsOf: student.run.url.appendingPathComponent("metrics.csv"), encoding: .utf8)
        let header = try XCTUnwrap(metrics.split(separator: "\n").first).split(separator: ",").map(String.init)
        XCTAssertTrue(header.contains("loss_kd") && header.contains("loss_ld"), "\(header)")
        XCTAssertEqual(try train().1, weights, "same seed and threads, same teacher: same weights")
        // Without the teacher the same seed trains to other weights.
        let plainFile = try TinyExperiment.write(name: "plain")
        let plain = try Trainer.start(experiment: plainFile, overrides: ["epochs=1"], options: options)
        _ = try plain.train()
        XCTAssertNotEqual(Dictionary(uniqueKeysWithValues: plain.setup.model.stateTensors().map { ($0.name, $0.tensor.values) }), weights)
    }

    func testATeacherThatDoesNotLineUpIsRefusedNamingTheKey() throws {
        let file = try TinyExperiment.write(name: "student")
        let folder = file.deletingLastPathComponent()
        var options = TinyExperiment.options()
        options.runsFolder = folder.appendingPathComponent("runs")
        func teacher(classes: Int, width: Int, height: Int) throws -> URL {
            let detector = try UIDetectorConfiguration(options: ["width_multiplier": "0.5", "fpn_channels": "16", "head_convolutions": "1", "distribution_bins": "8"],
                                                       classCount: classes, inputHeight: height, inputWidth: width)
            let header = WeightsHeader(architecture: ModelArchitecture(name: "ui-detector", options: ["width_multiplier": "0.5", "fpn_channels": "16",
                                                                                                      "head_convolutions": "1", "distribution_bins": "8"]),
                                       input: InputSpec(width: width, height: height), normalization: InputNormalization(mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25]),
                                       classes: Array(Taxonomy.screenRecognition.classes.prefix(classes)), provenance: Provenance(created: "2026-11-29T00:00:00Z"))
            let url = folder.appendingPathComponent("teacher-\(classes)-\(width)x\(height).slw")
            try WeightsFile(header: header, tensors: try UIDetector(configuration: detector).stateTensors()).write(to: url)
            return url
        }
        let cases: [(URL, String)] = [
            (try teacher(classes: 5, width: 64, height: 128), "has the classes"),
            (try teacher(classes: 13, width: 96, height: 128), "takes 96×128 inputs, the student 64×128"),
        ]
        for (url, expected) in cases {
            XCTAssertThrowsError(try Trainer.start(experiment: file, overrides: ["distill.teacher=\(url.path)"], options: options)) { error in
                XCTAssertTrue("\(error)".contains("(distill.teacher)") && "\(error)".contains(expected), "\(error)")
            }
        }
        // A wider teacher of the same layout is accepted: width and FPN channels may differ.
        let wide = try teacher(classes: 13, width: 64, height: 128)
        let trainer = try Trainer.start(experiment: file, overrides: ["distill.teacher=\(wide.path)", "epochs=1"], options: options)
        XCTAssertNotNil(trainer.setup.teacher)
        XCTAssertNil(trainer.setup.loss.settings.distillation.classMask)
        // distill.classes becomes the loss's per-class mask, in the dataset's class order; a name
        // outside the dataset is refused by key.
        let taught = try Trainer.start(experiment: file, overrides: ["distill.teacher=\(wide.path)", "distill.classes=[Text, Icon]", "epochs=1"],
                                       options: options)
        let classes = taught.setup.data.dataset.classes
        XCTAssertEqual(taught.setup.loss.settings.distillation.classMask, classes.map { ["Text", "Icon"].contains($0) ? 1 : 0 })
        XCTAssertThrowsError(try Trainer.start(experiment: file, overrides: ["distill.teacher=\(wide.path)", "distill.classes=[Text, Button]"],
                                               options: options)) { error in
            XCTAssertTrue("\(error)".contains("(distill.classes)") && "\(error)".contains("'Button' is not one of the dataset's classes"), "\(error)")
        }
        let missing = folder.appendingPathComponent("no-such-teacher.slw").path
        XCTAssertThrowsError(try Trainer.start(experiment: file, overrides: ["distill.teacher=\(missing)"], options: options)) { error in
            XCTAssertTrue("\(error)".contains("(distill.teacher)") && "\(error)".contains(missing), "\(error)")
        }
        XCTAssertThrowsError(try Trainer.start(experiment: file, overrides: ["distill.teacher=run:nothing-here"], options: options)) { error in
            XCTAssertTrue("\(error)".contains("(distill.teacher)") && "\(error)".contains("no finished run of experiment `nothing-here`"), "\(error)")
        }
    }
}
