import Foundation
import XCTest
@testable import Support

/// Staging of killed writers is swept at the next write into the same place; nothing else is.
final class StaleStagingTests: XCTestCase {
    func testOnlyOldStagingOfDeadProcessesGoes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dead = Int32.max - 1  // above any pid_max (at most 2²²): no such process
        XCTAssertFalse(StaleStaging.processIsAlive(dead))
        let old = Date().addingTimeInterval(-3600)
        func make(_ name: String, age: Date) throws {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.modificationDate: age], ofItemAtPath: url.path)
        }
        try make(".out.partial-\(dead)-123", age: old)            // a killed predict --out out
        try make(".last.tmp-\(dead)", age: old)                    // a checkpoint of a killed run
        try make(".screenlab-partial-\(dead)-9", age: old)         // staging inside an existing --out
        try make(".out.partial-\(getpid())-1", age: old)           // this process: alive
        try make(".fresh.partial-\(dead)", age: Date())            // too recent (a writer on another host?)
        try make(".notes.partial-abc", age: old)                   // not a pid
        try make("out.partial-\(dead)", age: old)                  // not hidden: not ours
        XCTAssertEqual(StaleStaging.sweep(in: folder, prefix: ".out.partial-"), [".out.partial-\(dead)-123"])
        XCTAssertEqual(Set(StaleStaging.sweep(in: folder)), [".last.tmp-\(dead)", ".screenlab-partial-\(dead)-9"])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)),
                       [".out.partial-\(getpid())-1", ".fresh.partial-\(dead)", ".notes.partial-abc", "out.partial-\(dead)"])
    }

    func testAnOutputFolderSweepsTheStagingOfAKilledWriteToTheSamePlace() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
        let left = parent.appendingPathComponent(".predicted.partial-\(Int32.max - 1)-42")
        try FileManager.default.createDirectory(at: left, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-600)], ofItemAtPath: left.path)
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = try OutputFolder(parent.appendingPathComponent("predicted"), existing: .mustBeEmpty)
        try folder.write("x", to: "a.txt")
        try folder.commit()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent.path), ["predicted"])
    }
}
