import Foundation
import XCTest

/// Scratch folders for tests, all under one folder per test process that is removed when the
/// test bundle finishes — so fixtures that outlive a single test (a trained tiny model shared by
/// several tests, child processes' run folders) leave nothing behind in the temporary directory.
public enum TestFolders {
    /// `<tmp>/screenlab-tests-<pid>/`, created on first use.
    public static var root: URL { Cleanup.shared.root }

    /// A new empty folder `<root>/<prefix>-<uuid>`.
    public static func make(_ prefix: String) throws -> URL {
        let folder = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes the process's folder at the end of the test bundle (registered on first use).
    private final class Cleanup: NSObject, XCTestObservation {
        static let shared = Cleanup()
        let root: URL

        override init() {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-tests-\(getpid())")
            super.init()
            try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            XCTestObservationCenter.shared.addTestObserver(self)
        }

        func testBundleDidFinish(_ testBundle: Bundle) {
            try? FileManager.default.removeItem(at: root)
        }
    }
}
