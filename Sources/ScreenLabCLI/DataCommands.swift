import ArgumentParser
import Data
import Foundation

// Owned by the datasets work: check, stats, split (synth lives in SynthCommand.swift).
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data", abstract: "Inspect, validate, split and generate datasets.",
        subcommands: [DataCheckCommand.self, DataSynthCommand.self])
}

/// Prints what a reader skipped or changed (e.g. ignored classes, iscrowd boxes).
func printNotes(_ dataset: Dataset) {
    for note in dataset.notes { print("note: \(note)") }
}

struct DataCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Find missing/corrupt images, bad boxes and label lines, duplicates and split leaks.",
        discussion: """
            DATASET is a dataset config (.yaml), a YOLO folder or a COCO .json. Every problem is printed
            with its file and line, then counts per problem type; exits non-zero when there are problems.
            --fix --out DIR writes a NEW label set (boxes clipped to the image; zero-area, unknown-class
            and malformed lines dropped) and lists every change; the original is never edited.
            """)

    @Argument(help: "Dataset: config .yaml, YOLO folder or COCO .json.") var dataset: String
    @Flag(help: "Decode every image fully (finds truncated files a header read misses).") var decode = false
    @Flag(help: "Write a fixed copy of the labels to --out.") var fix = false
    @Option(help: "Folder for the fixed label set (new or empty).") var out: String?
    @Option(help: "Print at most this many problems per type (all by default).") var maxPerType: Int?

    func validate() throws {
        if fix && out == nil { throw failure("--fix needs --out DIR (a new folder; the original is never edited)") }
        if out != nil && !fix { throw failure("--out is only used with --fix") }
    }

    func run() throws {
        let reference = DatasetReference.parse(dataset)
        guard reference.split == nil else { throw failure("check runs on a whole dataset; drop ':\(reference.split!)'") }
        let url = URL(fileURLWithPath: reference.path)
        let report: CheckReport
        do { report = try DatasetChecker.check(url, options: .init(decodeImages: decode, showProgress: true)) } catch {
            throw failure("\(error)")
        }
        printNotes(report.dataset)
        for (kind, count) in report.counts where count > 0 {
            let shown = report.issues.filter { $0.kind == kind }.prefix(maxPerType ?? Int.max)
            for issue in shown { print(issue) }
            if shown.count < count { print("... \(count - shown.count) more \(kind.rawValue) problems") }
        }
        let table = TextTable(header: ["problem", "count"], rows: report.counts.map { [$0.kind.rawValue, String($0.count)] })
        print("\n\(report.dataset.samples.count) readable images, \(report.dataset.samples.reduce(0) { $0 + $1.annotations.count }) boxes checked")
        print(table.terminal())
        if fix, let out {
            let (fixed, summary) = DatasetFixer.fix(report)
            let format = (try? DatasetLoader.format(of: url)) ?? .yolo
            do { try DatasetFixer.write(fixed, sourceFormat: format, to: URL(fileURLWithPath: out)) } catch { throw failure("\(error)") }
            print("\nwrote the fixed label set to \(out)")
            summary.lines.forEach { print($0) }
        }
        if !report.issues.isEmpty { throw ExitCode(1) }
    }
}
