import Foundation
import TestSupport
import XCTest

/// Help is what a new user reads first: every command's text must read as prose, wrapped by
/// the parser at the terminal width, not broken where a source line happened to end.
final class HelpTextTests: XCTestCase {
    func testNoHelpTextIsBrokenMidSentence() throws {
        let paths = try CommandTree.paths()
        XCTAssertGreaterThan(paths.count, 30, "found the commands: \(paths)")
        var broken: [String] = []
        for path in paths {
            let result = try ScreenlabProcess.run(path + ["--help"])
            XCTAssertEqual(result.status, 0, "\(path): \(result.output)")
            guard let start = result.output.range(of: "OVERVIEW: "), let end = result.output.range(of: "\nUSAGE:") else { continue }
            let lines = result.output[start.lowerBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            // A line the parser wrapped ends near the width; one that ends with room for the
            // next line's first word was broken by hand.
            for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !next.isEmpty {
                guard let word = next.split(separator: " ").first, !next.hasPrefix("-"), !next.hasPrefix("•"), !next.hasPrefix(" ") else { continue }
                if line.count + 1 + word.count < 80 { broken.append("screenlab \(path.joined(separator: " ")): '\(line)' / '\(next)'") }
            }
        }
        XCTAssertEqual(broken, [], broken.joined(separator: "\n"))
    }
}
