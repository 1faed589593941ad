import Foundation
import XCTest
@testable import Training

/// A checkpoint's state.json is checked against itself and the run before `--resume` uses a
/// number of it (issue 30: a huge totalEpochs trapped on overflow, a negative step resumed with a
/// negative learning rate and exit 0, stepsPerEpoch 0 and totalEpochs 0 were accepted).
final class ResumeStateTests: XCTestCase {
    func testTamperedStatesAreRefusedNamingTheValue() throws {
        let experiment = try TinyExperiment.write(name: "tamper")
        // Stop one step into epoch 2, after the epoch-1 checkpoint.
        let probe = try Trainer.start(experiment: experiment, overrides: ["epochs=2"], options: TinyExperiment.options())
        var options = TinyExperiment.options()
        options.stopAfterSteps = probe.setup.loader.batchCount(epoch: 0) + 1
        try FileManager.default.removeItem(at: probe.run.url)
        let trainer = try Trainer.start(experiment: experiment, overrides: ["epochs=2"], options: options)
        try trainer.train()
        let stateURL = trainer.run.lastCheckpoint.appendingPathComponent("state.json")
        let original = try Data(contentsOf: stateURL)
        XCTAssertNoThrow(try Trainer.resume(trainer.run.url, options: TinyExperiment.options()), "the untouched checkpoint resumes")

        let cases: [(key: String, value: Any, expected: String)] = [
            ("totalEpochs", 9_223_372_036_854_775_807, "totalEpochs is 9223372036854775807"),
            ("totalEpochs", 0, "totalEpochs is 0"),
            ("step", -100, "step is -100"),
            ("stepsPerEpoch", 0, "stepsPerEpoch is 0"),
            ("batch", 10_000, "batch 10000 lies outside"),
            ("emaUpdates", -1, "emaUpdates -1"),
            ("bestValMAP50", 7, "bestValMAP50 is 7.0"),
        ]
        for (key, value, expected) in cases {
            var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            var state = try XCTUnwrap(json["state"] as? [String: Any], "state.json keeps the state under 'state'")
            state[key] = value
            json["state"] = state
            try JSONSerialization.data(withJSONObject: json).write(to: stateURL)
            XCTAssertThrowsError(try Trainer.resume(trainer.run.url, options: TinyExperiment.options()), key) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains("state.json"), "\(key): \(error)")
            }
        }
        // The metrics rows go on into metrics.csv, the plots and the registry: an epoch of Int.max
        // trapped on `epoch + 1` there (seen while writing Fuzz/Sources/ResumeStateFuzz).
        let rowCases: [(key: String, value: Any, expected: String)] = [
            ("epoch", 9_223_372_036_854_775_807, "metrics[0].epoch is 9223372036854775807"),
            ("epoch", -1, "metrics[0].epoch is -1"),
            ("seconds", 1e308, "metrics[0].seconds is 1e+308"),
            ("learningRate", -0.5, "metrics[0].learningRate is -0.5"),
            ("valMAP50", 2, "metrics[0].valMAP50 is 2.0"),
        ]
        for (key, value, expected) in rowCases {
            var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            var rows = try XCTUnwrap(json["metrics"] as? [[String: Any]], "state.json keeps the metrics rows under 'metrics'")
            rows[0][key] = value
            json["metrics"] = rows
            try JSONSerialization.data(withJSONObject: json).write(to: stateURL)
            XCTAssertThrowsError(try Trainer.resume(trainer.run.url, options: TinyExperiment.options()), key) { error in
                XCTAssertTrue("\(error)".contains(expected) && "\(error)".contains("state.json"), "\(key): \(error)")
            }
        }
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        let rows = try XCTUnwrap(json["metrics"] as? [[String: Any]])
        json["metrics"] = rows + rows  // each epoch twice
        try JSONSerialization.data(withJSONObject: json).write(to: stateURL)
        XCTAssertThrowsError(try Trainer.resume(trainer.run.url, options: TinyExperiment.options())) { error in
            XCTAssertTrue("\(error)".contains("rows are distinct epochs"), "\(error)")
        }
        try original.write(to: stateURL)

        // Without overrides.txt the run's --set overrides (here epochs=2) are unknown: refused, not resumed without them.
        let overrides = trainer.run.url.appendingPathComponent("overrides.txt")
        XCTAssertEqual(try String(contentsOf: overrides, encoding: .utf8), "epochs=2\n")
        try FileManager.default.removeItem(at: overrides)
        XCTAssertThrowsError(try Trainer.resume(trainer.run.url, options: TinyExperiment.options())) { error in
            XCTAssertTrue("\(error)".contains("overrides.txt is missing"), "\(error)")
        }
    }

    /// Repeat-factor sampling rounds each image's repeats at random per epoch, so epochs differ in
    /// length: a 100-epoch vins-ui run stopped at epoch 34 with step 9250 where 34 × 272 is 9248,
    /// and its resume was refused. The step is checked against the loader's count of each epoch.
    func testEpochsOfDifferentLengthsResume() throws {
        let lengths = [272, 275, 271, 274]
        var state = RunState(totalEpochs: 10, stepsPerEpoch: 272)
        state.epoch = 3
        state.batch = 5
        state.step = 272 + 275 + 271 + 5
        let count = { (e: Int) in lengths[e] }
        XCTAssertNoThrow(try state.validate(batchCount: count, configuredEpochs: 10, budgeted: false, file: "state.json"))
        state.step = 3 * 272 + 5
        XCTAssertThrowsError(try state.validate(batchCount: count, configuredEpochs: 10, budgeted: false, file: "state.json")) { error in
            XCTAssertTrue("\(error)".contains("step is 821 but the 3 epochs before hold 818 batches"), "\(error)")
        }
        state.batch = 274
        state.step = 272 + 275 + 271 + 274
        XCTAssertThrowsError(try state.validate(batchCount: count, configuredEpochs: 10, budgeted: false, file: "state.json")) { error in
            XCTAssertTrue("\(error)".contains("batch 274 lies outside epoch 3's 274 batches"), "\(error)")
        }
    }
}
