import Foundation
import XCTest
@testable import Training

/// `init: run:NAME` picks the newest finished run's weights, never an unfinished one.
final class InitReferenceTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("init-reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private var runs: URL { root.appendingPathComponent("Experiments/runs") }

    private func makeRun(_ id: String, status: String, weights: Bool = true) throws {
        let folder = runs.appendingPathComponent("pretrain/\(id)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\"status\": \"\(status)\"}".utf8).write(to: folder.appendingPathComponent("summary.json"))
        if weights { try Data([1]).write(to: folder.appendingPathComponent("model.slw")) }
    }

    func testPicksNewestFinishedRunAndSkipsUnfinishedOnes() throws {
        try makeRun("20261101-000000-1", status: "finished")
        try makeRun("20261102-000000-1", status: "finished")
        try makeRun("20261103-000000-1", status: "interrupted")
        try makeRun("20261104-000000-1", status: "finished", weights: false)
        let path = try InitReference.resolve("run:pretrain", runs: runs, root: root, file: "x.yaml")
        XCTAssertEqual(path, "Experiments/runs/pretrain/20261102-000000-1/model.slw")
    }

    func testOrdinaryPathsPassThrough() throws {
        XCTAssertNil(try InitReference.resolve("Reports/models/a.slw", runs: runs, root: root, file: "x.yaml"))
    }

    func testNoFinishedRunNamesTheExperimentAndWhatToDo() throws {
        try makeRun("20261103-000000-1", status: "running")
        XCTAssertThrowsError(try InitReference.resolve("run:pretrain", runs: runs, root: root, file: "e.yaml")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("e.yaml (init): "), message)
            XCTAssertTrue(message.contains("no finished run of experiment `pretrain`"), message)
            XCTAssertTrue(message.contains("screenlab train Experiments/pretrain.yaml"), message)
        }
    }

    func testRefusesNamesThatLeaveTheRunsFolder() throws {
        for reference in ["run:", "run:../x", "run:..", "run:a/b"] {
            XCTAssertThrowsError(try InitReference.resolve(reference, runs: runs, root: root, file: "e.yaml"), reference)
        }
    }
}
