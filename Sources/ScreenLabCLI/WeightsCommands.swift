import ArgumentParser
import Detection
import Evaluation
import Foundation
import Weights

// Owned by the weights work: inspect, export, import, set-thresholds (format: Sources/Weights/FORMAT.md).
struct WeightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weights", abstract: "Inspect, export, import weights files and set their thresholds.",
        subcommands: [WeightsInspectCommand.self, WeightsExportCommand.self, WeightsImportCommand.self,
                      WeightsSetThresholdsCommand.self])
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
        let weights = try reportingErrors { try WeightsFile.read(contentsOf: URL(fileURLWithPath: file)) }
        try reportingErrors { try weights.safetensors().write(to: URL(fileURLWithPath: output)) }
        print("wrote \(output): \(weights.tensors.count) tensors, \(weights.elementCount) float32 values, header in __metadata__")
    }
}

struct WeightsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Make a weights file from a safetensors file for a model config.")

    @Option(name: .customLong("safetensors"), help: "The safetensors file to read (float32 tensors).") var input: String
    @Option(help: "The model description, e.g. Configs/models/reference-detector.yaml.") var model: String
    @Option(help: "The .slw file to write.") var out: String

    func run() throws {
        let (weights, checkedShapes) = try reportingErrors { () -> (WeightsFile, Bool) in
            let config = try ModelConfig.load(contentsOf: URL(fileURLWithPath: model))
            let safetensors = try SafetensorsFile.read(contentsOf: URL(fileURLWithPath: input))
            let expected = try modelStateShapes(for: config, configFile: model)
            let imported = try WeightsFile.importing(safetensors, file: input, config: config, configFile: model,
                                                     expected: expected, created: Provenance.timestamp())
            try imported.write(to: URL(fileURLWithPath: out))
            return (imported, expected != nil)
        }
        print("wrote \(out): \(weights.tensors.count) tensors, \(weights.elementCount) float32 values, "
              + "\(weights.header.classes.count) classes, architecture \(weights.header.architecture.name)")
        if !checkedShapes {
            print("note: ScreenLab has no model for this architecture: checked against the model config only "
                  + "(architecture, input, normalization, classes), not tensor names and shapes")
        }
    }

}

/// The ordered `name, shape` list of the Detection model a config describes (built with the
/// config's options, seed 0), or nil for an architecture this ScreenLab has no model for.
private func modelStateShapes(for config: ModelConfig, configFile: String) throws -> [(name: String, shape: [Int])]? {
    guard config.architecture.name == "reference-detector" else { return nil }
    var detector = DetectorConfiguration(classCount: config.classes.count, inputHeight: config.input.height,
                                         inputWidth: config.input.width)
    func invalid(_ key: String, _ value: String, _ expected: String) -> CommandFailure {
        failure("\(configFile): architecture.options.\(key) is \(value); expected \(expected)")
    }
    for (key, value) in config.architecture.options.sorted(by: { $0.key < $1.key }) {
        switch key {
        case "backbone":
            guard value == "mobilenet_v1" else { throw invalid(key, value, "mobilenet_v1 (the only backbone of reference-detector)") }
        case "width_multiplier":
            guard let number = Double(value), number > 0, number <= 4 else { throw invalid(key, value, "a number in (0, 4]") }
            detector.widthMultiplier = number
        case "fpn_channels":
            guard let number = Int(value), number > 0 else { throw invalid(key, value, "a positive integer") }
            detector.fpnChannels = number
        case "anchors_per_cell":
            guard let number = Int(value), number > 0 else { throw invalid(key, value, "a positive integer") }
            detector.anchorsPerCell = number
        default:
            throw failure("\(configFile): architecture.options.\(key) is not an option of reference-detector "
                          + "(known: anchors_per_cell, backbone, fpn_channels, width_multiplier)")
        }
    }
    return try ReferenceDetector(configuration: detector).stateShapes()
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
        let output = out.map { URL(fileURLWithPath: $0) }
            ?? input.deletingPathExtension().appendingPathExtension("thresholds").appendingPathExtension("slw")
        guard output.standardizedFileURL != input.standardizedFileURL else {
            throw usageError("--out must differ from \(file): set-thresholds writes a new file and keeps the original")
        }
        let picked = try pickedThresholds(URL(fileURLWithPath: thresholds))
        let updated = try reportingErrors { () -> WeightsFile in
            let weights = try WeightsFile.read(contentsOf: input)
            let updated = try weights.settingThresholds(picked, file: thresholds)
            try updated.write(to: output)
            return updated
        }
        print("wrote \(output.path) with thresholds for \(picked.count) of \(updated.header.classes.count) classes "
              + "(tensors unchanged):")
        for threshold in picked {
            print("  \(threshold.className): confidence \(threshold.confidence), precision \(threshold.precision), "
                  + "recall \(threshold.recall), f1 \(threshold.f1) on \(threshold.split)")
        }
    }
}


/// The thresholds `screenlab thresholds pick` wrote (Evaluation's `ThresholdFile`), as header
/// entries. Classes whose confidence is null (nothing detected on the pick split) get none.
private func pickedThresholds(_ url: URL) throws -> [ClassThreshold] {
    let file = try reportingErrors { try ThresholdFile.load(url) }
    let split = file.pickedOn.split ?? file.pickedOn.dataset
    return try file.classes.compactMap { entry in
        guard let confidence = entry.confidence else { return nil }
        guard let precision = entry.precision, let recall = entry.recall, let f1 = entry.f1 else {
            throw failure("\(url.path): class \(entry.name) has a confidence but no precision, recall or f1; "
                          + "pick the thresholds again with `screenlab thresholds pick`")
        }
        return ClassThreshold(className: entry.name, confidence: confidence, precision: precision, recall: recall, f1: f1,
                              split: split)
    }
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
