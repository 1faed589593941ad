import ArgumentParser
import Data
import Detection
import Foundation
import Support
import Imaging
import Training

// Owned by the datasets work: check, stats, split (synth lives in SynthCommand.swift).
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data", abstract: "Inspect, validate, split and generate datasets.",
        subcommands: [DataCheckCommand.self, DataStatsCommand.self, DataSplitCommand.self, DataConvertCommand.self,
                      DataSynthCommand.self, DataAssignmentCommand.self])
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
            DATASET is a dataset config (.yaml), a YOLO folder or a COCO .json. Every problem is printed \
            with its file and line, then counts per problem type; exits non-zero when there are problems. \
            Every image's end is checked for truncation (JPEG end marker, PNG IEND); --decode decodes fully.
            --fix --out DIR writes a NEW label set (boxes clipped to the image; zero-area, unknown-class \
            and malformed lines, broken images and repeated list entries left out) and lists every change; \
            the original is never edited.
            """)

    @Argument(help: "Dataset: config .yaml, YOLO folder or COCO .json.") var dataset: String
    @Flag(help: "Decode every image fully (finds corrupt data the end-marker check misses).") var decode = false
    @Flag(help: "Write a fixed copy of the labels to --out.") var fix = false
    @Option(help: "Folder for the fixed label set (new or empty).") var out: String?
    @Option(help: "Print at most this many problems per type (all by default).") var maxPerType: Int?

    func validate() throws {
        if let maxPerType, maxPerType < 0 { throw usageError("--max-per-type must be 0 or more (got \(maxPerType))") }
        if fix && out == nil { throw usageError("--fix needs --out DIR (a new folder; the original is never edited)") }
        if out != nil && !fix { throw usageError("--out is only used with --fix") }
    }

    func run() throws {
        let reference = DatasetReference.parse(dataset)
        guard reference.split == nil else { throw usageError("check runs on a whole dataset; drop ':\(reference.split!)'") }
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
        if !fix { report.remedies(datasetArgument: dataset).forEach { print($0) } }
        if fix, let out {
            let (fixed, summary) = DatasetFixer.fix(report)
            let format = (try? DatasetLoader.format(of: url)) ?? .yolo
            do { try DatasetFixer.write(fixed, sourceFormat: format, to: URL(fileURLWithPath: out), showProgress: true) } catch {
                throw failure("\(error)")
            }
            print("\nwrote the fixed label set to \(out)")
            summary.lines.forEach { print($0) }
        }
        if !report.issues.isEmpty { throw ExitCode(1) }
    }
}

/// Loads a dataset for a command, turning library errors into a message and a non-zero exit.
func loadDataset(_ text: String) throws -> Dataset {
    do { return try DatasetLoader.load(DatasetReference.parse(text), showProgress: true) } catch { throw failure("\(error)") }
}

struct DataStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Class counts per split, boxes per image, box size and aspect histograms.",
        discussion: "Prints aligned tables; --out DIR also writes report.md with SVG charts.")

    @Argument(help: "Dataset: config .yaml, YOLO folder or COCO .json, optionally :SPLIT.") var dataset: String
    @Option(help: "Folder for report.md and the SVG charts.") var out: String?

    func run() throws {
        let data = try loadDataset(dataset)
        printNotes(data)
        let stats = DatasetStats.compute(data)
        print(stats.terminalReport())
        if let out {
            do { try stats.writeReport(title: "Dataset statistics: \(dataset)", to: URL(fileURLWithPath: out)) } catch { throw failure("\(error)") }
            print("\nwrote \(out)/report.md and 4 SVG charts")
        }
    }
}

struct DataSplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split",
        abstract: "New train/val/test splits by group (app) or image, stratified by class, seeded.",
        discussion: """
            Writes DIR as a YOLO dataset (labels, links to the images, splits/NAME.txt lists, manifest.tsv \
            with groups) that every command reads. --by group keeps each app in one split (the leakage \
            Screen Recognition warns about); samples without a group need --by image.
            """)

    @Argument(help: "Dataset: config .yaml, YOLO folder or COCO .json.") var dataset: String
    @Option(help: "Split unit: group (app) or image.") var by: String = "group"
    @Option(help: "Random seed (ties and unit order).") var seed: UInt64 = 0
    @Option(help: "Fractions per split, summing to 1.") var fractions: String = "0.8,0.1,0.1"
    @Option(help: "Split names, one per fraction.") var names: String = "train,val,test"
    @Option(help: "Output folder (new or empty).") var out: String

    func validate() throws {
        for name in names.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.hasPrefix(".") else {
                throw usageError("--names: '\(name)' is not a split name (each becomes splits/NAME.txt: no '/', no leading '.', not empty)")
            }
        }
    }

    func run() throws {
        guard let unit = DatasetSplitter.Unit(rawValue: by) else { throw usageError("--by must be group or image, not '\(by)'") }
        let parsed = fractions.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parsed.allSatisfy({ $0 != nil }) else { throw usageError("--fractions '\(fractions)' must be numbers like 0.8,0.1,0.1") }
        let splitNames = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var data = try loadDataset(dataset)
        printNotes(data)
        do {
            data.splits = try DatasetSplitter.split(data, names: splitNames, fractions: parsed.map { $0! }, by: unit, seed: seed)
            try DatasetFixer.writeNew(data, format: .yolo, to: URL(fileURLWithPath: out), showProgress: true)
        } catch { throw failure("\(error)") }
        let groups = splitNames.map { name in Set(data.splits[name]!.compactMap { data.samples[$0].group }).count }
        print("split \(data.samples.count) images by \(unit.rawValue) with seed \(seed): "
              + zip(splitNames, groups).map { "\($0) \(data.splits[$0]!.count) images" + (unit == .group ? " / \($1) groups" : "") }.joined(separator: ", "))
        print(DatasetStats.compute(data).classTable().terminal())
        print("\nwrote \(out) (splits/*.txt, labels, image links, manifest.tsv)")
    }
}

struct DataConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write a dataset (after its config's class mapping) as YOLO or COCO.",
        discussion: """
            YOLO: DIR gets classes.txt, labels/, splits/, manifest.tsv and images/ (links, or copies with
            --copy-images). COCO: DIR/annotations.json, image paths relative to it, with COCO ids kept.
            """)

    @Argument(help: "Dataset: config .yaml, YOLO folder or COCO .json, optionally :SPLIT.") var dataset: String
    @Option(help: "Output format: yolo or coco.") var to: String
    @Option(help: "Output folder (new or empty).") var out: String
    @Flag(help: "Copy images into a YOLO output instead of linking them.") var copyImages = false

    func validate() throws {
        guard ["yolo", "coco"].contains(to) else { throw usageError("--to must be yolo or coco, not '\(to)'") }
    }

    func run() throws {
        let data = try loadDataset(dataset)
        printNotes(data)
        let folder = URL(fileURLWithPath: out)
        do {
            try DatasetFixer.writeNew(data, format: to == "coco" ? .coco : .yolo, to: folder, images: copyImages ? .copy : .symlink,
                                      showProgress: true)
        } catch { throw failure("\(error)") }
        print("wrote \(data.samples.count) images, \(data.samples.reduce(0) { $0 + $1.annotations.count }) boxes, "
              + "\(data.classes.count) classes as \(to) to \(out)")
    }
}

/// `screenlab data assignment D[:SPLIT] [--model M.yaml] [--min-positives N] [--within-reach]`.
struct DataAssignmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assignment",
        abstract: "How ATSS assigns a dataset's boxes to the detector's priors, per class and size, before any training.",
        discussion: """
        Letterboxes every screen into the model's input, runs the training loss's ATSS assigner on its boxes and prints, per \
        class and size bucket (√area at the input): boxes · share left without a positive by the adaptive threshold (the \
        rescue then gives them one) · positives per box · share of positives whose box lies beyond the head's reach (their \
        targets are clamped). --min-positives and --within-reach are the experiment keys assigner.min_positives and \
        assigner.within_reach.
        """)

    @Argument(help: "Dataset: config .yaml, YOLO folder or COCO .json, optionally :SPLIT.") var dataset: String
    @Option(help: "Model config (.yaml).") var model = "Configs/models/ui-detector.yaml"
    @Option(help: "assigner.min_positives (0: the paper's rule).") var minPositives = 0
    @Flag(help: "assigner.within_reach.") var withinReach = false
    @Flag(help: "assigner.smallest_wins.") var smallestWins = false

    func validate() throws {
        guard (0...64).contains(minPositives) else { throw usageError("--min-positives must be 0…64, got \(minPositives)") }
    }

    func run() throws {
        let data = try loadDataset(dataset)
        printNotes(data)
        do {
            let configuration = try DetectorModelFile.load(contentsOf: URL(fileURLWithPath: model))
                .configuration(classes: data.classes, inputWidth: nil, inputHeight: nil)
            let images = data.samples.map { sample -> [Annotation] in
                let letterbox = Letterbox(sourceWidth: sample.width, sourceHeight: sample.height,
                                          targetWidth: configuration.inputWidth, targetHeight: configuration.inputHeight)
                return sample.annotations.map { annotation in
                    let r = letterbox.toTarget(annotation.box)
                    return Annotation(classIndex: annotation.classIndex, box: BoundingBox(x: r.x, y: r.y, width: r.width, height: r.height))
                }
            }
            let statistics = try AssignmentStatistics(images: images, classCount: data.classes.count, configuration: configuration,
                                                      minimumPositives: minPositives, withinReach: withinReach, smallestWins: smallestWins,
                                                      bucketEdges: [8, 16, 32, 64, 128])
            print("\(data.samples.count) screens at \(configuration.inputWidth)×\(configuration.inputHeight); ATSS with min_positives \(minPositives), within_reach \(withinReach), smallest_wins \(smallestWins)")
            print("cells: boxes · no positive before the rescue · positives per box · positives beyond the head's reach")
            print(statistics.table(classes: data.classes), terminator: "")
        } catch let error as ValidationError {
            throw error
        } catch {
            throw failure("\(error)")
        }
    }
}
