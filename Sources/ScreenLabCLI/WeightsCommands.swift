import ArgumentParser
import Detection
import Evaluation
import Foundation
import Weights

// Owned by the weights work: inspect, export, import, set-thresholds, convert (format: Sources/Weights/FORMAT.md).
struct WeightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weights", abstract: "Inspect, export, import, convert and average weights files and set their thresholds.",
        subcommands: [WeightsInspectCommand.self, WeightsExportCommand.self, WeightsImportCommand.self,
                      WeightsSetThresholdsCommand.self, WeightsConvertCommand.self, WeightsAverageCommand.self])
}

/// Runs a library call, turning its error (`WeightsError`, `FileWriteError`) into a message
/// without a stack trace.
private func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw failure("\(error)")
    }
}

struct WeightsInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect", abstract: "Check a weights file and print its version, header, tensor table and load time.")

    @Argument(help: "A .slw weights file.") var file: String

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUMilliseconds()
        let weights = try reportingErrors { try WeightsFile.read(contentsOf: url) }
        try reportingErrors { try weights.checkFinite(file: url.relativePath) }
        let cpu = threadCPUMilliseconds() - cpuStart
        let elapsed = clock.now - start
        print(WeightsReport.text(weights, loadMilliseconds: elapsed.milliseconds, cpuMilliseconds: cpu))
    }
}

struct WeightsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the weights as a safetensors file (header fields in __metadata__).")

    @Argument(help: "A .slw weights file.") var file: String
    @Option(name: .customLong("safetensors"), help: "The safetensors file to write.") var output: String

    func run() throws {
        let weights = try reportingErrors { () -> WeightsFile in
            let weights = try WeightsFile.read(contentsOf: URL(fileURLWithPath: file))
            try weights.checkFinite(file: file)
            return weights
        }
        try reportingErrors { try weights.safetensors().write(to: URL(fileURLWithPath: output), notReplacing: [URL(fileURLWithPath: file)]) }
        print("wrote \(output): \(weights.tensors.count) tensors, \(weights.elementCount) values "
              + "(\(weights.float16Tensors.isEmpty ? "F32" : "F16 where the file stores float16")), header in __metadata__")
    }
}

struct WeightsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Make a weights file from a safetensors file for a model config.")

    @Option(name: .customLong("safetensors"), help: "The safetensors file to read (F32 or F16 tensors).") var input: String
    @Option(help: "The model description, e.g. Configs/models/reference-detector.yaml.") var model: String
    @Option(help: "The .slw file to write.") var out: String

    func run() throws {
        let (weights, checkedShapes) = try reportingErrors { () -> (WeightsFile, Bool) in
            let config = try ModelConfig.load(contentsOf: URL(fileURLWithPath: model))
            let safetensors = try SafetensorsFile.read(contentsOf: URL(fileURLWithPath: input))
            try safetensors.checkFinite(file: input)
            let expected: [(name: String, shape: [Int])]?
            do {
                expected = try ExpectedModelState.shapes(architecture: config.architecture.name, options: config.architecture.options,
                                                         classCount: config.classes.count, inputHeight: config.input.height, inputWidth: config.input.width)
            } catch {
                throw failure("\(model): \(error)")
            }
            let imported = try WeightsFile.importing(safetensors, file: input, config: config, configFile: model,
                                                     expected: expected, created: Provenance.timestamp())
            try imported.write(to: URL(fileURLWithPath: out), notReplacing: [URL(fileURLWithPath: input), URL(fileURLWithPath: model)])
            return (imported, expected != nil)
        }
        print("wrote \(out): \(weights.tensors.count) tensors, \(weights.elementCount) values, "
              + "\(weights.header.classes.count) classes, architecture \(weights.header.architecture.name)")
        if !checkedShapes {
            print("note: ScreenLab has no model for this architecture: checked against the model config only "
                  + "(architecture, input, normalization, classes), not tensor names and shapes")
        }
    }
}

struct WeightsSetThresholdsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-thresholds",
        abstract: "Write a new weights file carrying the per-class thresholds picked by `screenlab thresholds pick`.")

    @Argument(help: "A .slw weights file.") var file: String
    @Option(help: "thresholds.yaml written by `screenlab thresholds pick`.") var thresholds: String
    @Option(help: "The new weights file (default: FILE.thresholds.slw beside FILE).") var out: String?

    func run() throws {
        let input = URL(fileURLWithPath: file)
        let output = try newWeightsFile(beside: file, out: out, suffix: "thresholds", command: "set-thresholds")
        let picked = try reportingErrors { try pickedThresholds(thresholds) }
        let updated = try reportingErrors {
            try WeightsFile.writeWithThresholds(from: input, picked: picked, to: output, keeping: [URL(fileURLWithPath: thresholds)])
        }
        let set = updated.header.thresholds ?? []
        print("wrote \(output.relativePath) with thresholds for \(set.count) of \(updated.header.classes.count) classes "
              + "(tensors unchanged):")
        for threshold in set {
            print("  \(threshold.className): confidence \(threshold.confidence), precision \(threshold.precision), "
                  + "recall \(threshold.recall), f1 \(threshold.f1) on \(threshold.split)")
        }
        let fellBack = picked.fallbackClasses
        if !fellBack.isEmpty {
            print("note: \(fellBack.joined(separator: ", ")): the strategy's target was not reached, so max-F1 picked the "
                  + "confidence (fallback: true in \(thresholds)); the weights header keeps the confidence and its scores, "
                  + "not the fallback flag")
        }
    }
}

struct WeightsConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Write a copy of a weights file with its tensors stored as float16 (half the size) or float32.",
        discussion: """
            float16 rounds each value to the nearest float16 once (at most 2^-11 relative); the model still \
            computes in float32, so a converted file gives the same detections as a float32 file holding the \
            rounded values. Tensors with a value beyond float16's range (±65504) stay float32. float32 widens \
            exactly. Measure the effect with `screenlab evaluate --weights OUT`.
            """)

    enum StorageType: String, ExpressibleByArgument, CaseIterable { case float16, float32 }

    @Argument(help: "A .slw weights file.") var file: String
    @Option(help: "How to store the tensors: float16 or float32.") var dtype: StorageType
    @Option(help: "The new weights file (default: FILE.DTYPE.slw beside FILE).") var out: String?

    func run() throws {
        let input = URL(fileURLWithPath: file)
        let output = try newWeightsFile(beside: file, out: out, suffix: dtype.rawValue, command: "convert")
        let original = try reportingErrors { () -> WeightsFile in
            let weights = try WeightsFile.read(contentsOf: input)
            try weights.checkFinite(file: file)
            return weights
        }
        let converted: WeightsFile
        var conversion: Float16Conversion?
        switch dtype {
        case .float16: (converted, conversion) = original.storingFloat16()
        case .float32: converted = original.storingFloat32()
        }
        try reportingErrors { try converted.write(to: output, notReplacing: [input]) }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? nil
        let before = original.layout?.fileSize
        print("wrote \(output.relativePath): format \(converted.minimumFormatVersion), "
              + "\(size.map { "\($0) bytes" } ?? "size unknown")\(before.map { " (was \($0))" } ?? ""), "
              + "\(converted.tensors.count) tensors, \(converted.float16Tensors.count) stored as float16")
        guard let conversion else { return }
        let worstAbsolute = conversion.rounded.max { $0.maxAbsoluteError < $1.maxAbsoluteError }
        let worstRelative = conversion.rounded.max { $0.maxRelativeError < $1.maxRelativeError }
        let flushed = conversion.rounded.reduce(0) { $0 + $1.flushedToZero }
        if let worstAbsolute, let worstRelative {
            print("rounding: largest change \(worstAbsolute.maxAbsoluteError) (\(worstAbsolute.name)); largest relative change "
                  + "\(worstRelative.maxRelativeError) (\(worstRelative.name)); \(flushed) non-zero values below 6e-8 became 0")
        }
        for (name, value) in conversion.keptFloat32 {
            print("kept float32: \(name) (holds \(value), beyond float16's ±65504)")
        }
    }
}

struct WeightsAverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "average",
        abstract: "Average the weights of models fine-tuned from one starting point (a model soup) into a new file.",
        discussion: """
            Every input must have the same architecture, input, normalization, classes and tensor shapes. Batch-norm \
            statistics are averaged with the rest. The inputs' thresholds do not carry over: score the new file on \
            val (`screenlab evaluate --weights OUT --data D:val`), pick thresholds there and store them with \
            `weights set-thresholds`.
            """)

    @Argument(help: "Two or more .slw weights files.") var files: [String]
    @Option(help: "The new weights file.") var out: String

    func validate() throws {
        guard files.count >= 2 else { throw usageError("give at least two weights files to average") }
        let output = URL(fileURLWithPath: out).standardizedFileURL
        if let input = files.first(where: { URL(fileURLWithPath: $0).standardizedFileURL == output }) {
            throw usageError("--out must differ from the inputs (\(input)): average writes a new file")
        }
    }

    func run() throws {
        let inputs = try reportingErrors { try files.map { (file: $0, weights: try WeightsFile.read(contentsOf: URL(fileURLWithPath: $0))) } }
        let averaged = try reportingErrors { try WeightsFile.average(inputs, created: Provenance.timestamp()) }
        try reportingErrors { try averaged.write(to: URL(fileURLWithPath: out), notReplacing: files.map { URL(fileURLWithPath: $0) }) }
        print("wrote \(out): the mean of \(files.count) models, \(averaged.tensors.count) tensors (\(averaged.elementCount) values); "
              + "no thresholds yet: pick them on val and store them with `screenlab weights set-thresholds`")
    }
}

/// The file a command that derives new weights writes: `--out`, or FILE.SUFFIX.slw beside FILE;
/// never FILE itself (these commands keep the original).
private func newWeightsFile(beside file: String, out: String?, suffix: String, command: String) throws -> URL {
    let input = URL(fileURLWithPath: file)
    let output = out.map { URL(fileURLWithPath: $0) }
        ?? input.deletingPathExtension().appendingPathExtension(suffix).appendingPathExtension("slw")
    guard output.standardizedFileURL != input.standardizedFileURL else {
        throw usageError("--out must differ from \(file): \(command) writes a new file and keeps the original")
    }
    return output
}

/// `thresholds.yaml` parsed by Evaluation's `ThresholdFile`, handed to Weights as plain rows.
private func pickedThresholds(_ path: String) throws -> PickedThresholds {
    let file = try ThresholdFile.load(URL(fileURLWithPath: path))
    return PickedThresholds(file: path, dataset: file.pickedOn.dataset, split: file.pickedOn.split, rows: file.classes.map {
        .init(className: $0.name, confidence: $0.confidence, precision: $0.precision, recall: $0.recall, f1: $0.f1,
              fellBack: $0.fallback, pickedOn: $0.pickedOn)
    })
}

/// CPU time of this thread: on a busy machine wall time also counts waiting for a core.
private func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

extension Duration {
    var milliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
