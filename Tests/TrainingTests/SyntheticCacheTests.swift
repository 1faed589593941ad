import Foundation
import TestSupport
@testable import Training
import XCTest

/// The synthetic-screen cache when several runs render the same screens at once (two trainings
/// started together from a fresh clone): exactly one render is published, the others use it, and
/// a complete cache folder is never removed under a run that is loading it.
final class SyntheticCacheTests: XCTestCase {
    private func render(_ folder: URL, marker: String, complete: Bool) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try marker.write(to: folder.appendingPathComponent("marker.txt"), atomically: true, encoding: .utf8)
        if complete { try "button\n".write(to: folder.appendingPathComponent("classes.txt"), atomically: true, encoding: .utf8) }
    }

    private func marker(in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("marker.txt"), encoding: .utf8)
    }

    func testTheFirstRenderIsPublishedAndALaterOneIsDropped() throws {
        let cache = try TestFolders.make("synthetic-publish")
        let target = cache.appendingPathComponent("synthetic-a")
        let first = cache.appendingPathComponent(".synthetic-a.partial-1"), second = cache.appendingPathComponent(".synthetic-a.partial-2")
        try render(first, marker: "first", complete: true)
        try render(second, marker: "second", complete: true)

        XCTAssertTrue(try ExperimentData.publish(first, as: target))
        XCTAssertEqual(try marker(in: target), "first")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path), "renamed, not copied")

        XCTAssertFalse(try ExperimentData.publish(second, as: target), "the loser is told it lost, not an error")
        XCTAssertEqual(try marker(in: target), "first", "the published folder is never replaced under its readers")
        XCTAssertFalse(FileManager.default.fileExists(atPath: second.path), "the loser's copy is removed")
    }

    func testAFolderLeftHalfWrittenIsReplaced() throws {
        let cache = try TestFolders.make("synthetic-half")
        let target = cache.appendingPathComponent("synthetic-a"), fresh = cache.appendingPathComponent(".synthetic-a.partial-3")
        try render(target, marker: "half", complete: false)
        try render(fresh, marker: "fresh", complete: true)

        XCTAssertTrue(try ExperimentData.publish(fresh, as: target))
        XCTAssertEqual(try marker(in: target), "fresh")
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        XCTAssertEqual(left, ["synthetic-a"], "neither the half-written folder nor a staging folder stays behind")
    }

    /// A destination that cannot take the render (here a file where the folder goes): an error
    /// naming the path and what to check, and the render's staging folder is not left behind.
    func testAPublishThatCannotRenameNamesThePathAndLeavesNoStaging() throws {
        let cache = try TestFolders.make("synthetic-blocked")
        let target = cache.appendingPathComponent("synthetic-a"), fresh = cache.appendingPathComponent(".synthetic-a.partial-4")
        try "not a folder".write(to: target, atomically: true, encoding: .utf8)
        try render(fresh, marker: "fresh", complete: true)

        XCTAssertThrowsError(try ExperimentData.publish(fresh, as: target)) { error in
            XCTAssertTrue("\(error)".contains(target.path) && "\(error)".contains("writable"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.path), "the staging folder is removed")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "not a folder", "what was there is untouched")
    }

    /// The race CI hit: both runs see no cache, both render, both publish. Before, the one that
    /// moved second failed with "Directory not empty" and its training exited 1.
    func testRunsRenderingTheSameScreensAtOnceAllSucceed() throws {
        let cache = try TestFolders.make("synthetic-race")
        let config = ExperimentConfig.SyntheticData(count: 6, seed: 11, screensPerApp: 3, valFraction: 0.2, testFraction: 0.2)
        let runs = 4
        var results = [Result<Int, Error>?](repeating: nil, count: runs)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: runs) { index in
            let result = Result { try ExperimentData.synthesize(config, cacheFolder: cache, log: { _ in }).dataset.samples.count }
            lock.lock(); results[index] = result; lock.unlock()
        }
        let counts = try results.map { try XCTUnwrap($0).get() }
        XCTAssertEqual(Set(counts), [6], "every run loads the same six screens")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        XCTAssertEqual(entries.count, 1, "one published folder and no staging left: \(entries)")
        XCTAssertTrue(entries[0].hasPrefix("synthetic-n6-seed11-"), entries[0])
    }
}
