import Foundation
import TestSupport

/// The `screenlab` command tree as its `--help` shows it.
enum CommandTree {
    /// Every command path, found by walking the SUBCOMMANDS sections of `--help`.
    static func paths() throws -> [[String]] {
        var paths: [[String]] = [], pending: [[String]] = [[]]
        while let path = pending.popLast() {
            paths.append(path)
            let help = try ScreenlabProcess.run(path + ["--help"]).output
            guard let section = help.range(of: "SUBCOMMANDS:\n") else { continue }
            for line in help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
                // A subcommand line is indented two spaces; its wrapped description much more.
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }
                if name == "See" || name.hasPrefix("'") { break }
                pending.append(path + [String(name.replacingOccurrences(of: " (default)", with: ""))])
            }
        }
        return paths
    }
}
