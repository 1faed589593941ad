import Foundation
import TestSupport
import XCTest

/// Every `screenlab …` command line in README.md and docs/*.md code blocks names a command that
/// exists and only flags that command's `--help` lists, so the documentation cannot drift from
/// the CLI unnoticed (issue 31: docs that are checked, not trusted).
final class DocumentedCommandTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Command lines inside ``` blocks, continuation lines joined, from `screenlab` on.
    static func documentedCommands() throws -> [(file: String, words: [String])] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        var found: [(String, [String])] = []
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var inBlock = false, pending = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") { inBlock.toggle(); pending = ""; continue }
                guard inBlock else { continue }
                var content = pending + String(line)
                if let hash = content.range(of: " #") { content = String(content[..<hash.lowerBound]) }
                if content.hasSuffix("\\") { pending = String(content.dropLast()) + " "; continue }
                pending = ""
                if content.contains(where: { "│┌├└─".contains($0) }) { continue }  // the architecture picture
                let words = content.split(separator: " ").map(String.init)
                // The command may follow other words (`t=$(…); .build/release/screenlab …`).
                guard let start = words.firstIndex(where: { $0 == "screenlab" || $0.hasSuffix("/screenlab") }) else { continue }
                found.append((file, Array(words[(start + 1)...])))
            }
        }
        return found
    }

    func testEveryDocumentedCommandAndFlagExists() throws {
        let commands = try Self.documentedCommands()
        XCTAssertGreaterThan(commands.count, 30, "found the documented commands")
        let paths = try CommandTree.paths()
        var help: [[String]: String] = [:]
        var problems: [String] = []
        for (file, words) in commands {
            // The longest known command path the line starts with.
            guard let path = paths.filter({ !$0.isEmpty && words.starts(with: $0) }).max(by: { $0.count < $1.count }) else {
                problems.append("\(file): `screenlab \(words.joined(separator: " "))` names no command")
                continue
            }
            if help[path] == nil { help[path] = try ScreenlabProcess.run(path + ["--help"]).output }
            for word in words.dropFirst(path.count) where word.hasPrefix("--") {
                let flag = String(word.split(separator: "=").first!).trimmingCharacters(in: CharacterSet(charactersIn: "[]()|,`"))
                guard flag.count > 2, flag.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { continue }
                if !(help[path]!.contains(flag + " ") || help[path]!.contains(flag + "\n") || help[path]!.contains(flag + ",")) {
                    problems.append("\(file): `screenlab \(path.joined(separator: " "))` has no \(flag)")
                }
            }
        }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }
}
