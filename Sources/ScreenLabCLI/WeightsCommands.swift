import ArgumentParser
import Foundation
import Weights

// Owned by the weights work: inspect, export, import, set-thresholds (format: Sources/Weights/FORMAT.md).
struct WeightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weights", abstract: "Inspect, export, import weights files and set their thresholds.",
        subcommands: [WeightsInspectCommand.self, WeightsExportCommand.self, WeightsImportCommand.self,
                      ])
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
        let weights = try reportingErrors { try WeightsFile.read(contentsOf: url) }
        let elapsed = clock.now - start
        print(WeightsReport.text(weights, loadMilliseconds: elapsed.milliseconds))
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
            let expected = modelStateShapes(for: config)
            let imported = try WeightsFile.importing(safetensors, file: input, config: config, configFile: model,
                                                     expected: expected, created: ISO8601DateFormatter().string(from: Date()))
            try imported.write(to: URL(fileURLWithPath: out))
            return (imported, expected != nil)
        }
        print("wrote \(out): \(weights.tensors.count) tensors, \(weights.elementCount) float32 values, "
              + "\(weights.header.classes.count) classes, architecture \(weights.header.architecture.name)")
        if !checkedShapes {
            print("note: checked against the model config only (architecture, input, classes); tensor names and shapes "
                  + "are checked once the Detection model's expected shapes are wired in")
        }
    }

    /// The model's ordered `name, shape` list for `config`; nil while the Detection model is
    /// not wired in (the lead connects `ReferenceDetector(...).stateShapes()` here).
    private func modelStateShapes(for config: ModelConfig) -> [(name: String, shape: [Int])]? { nil }
}

extension Duration {
    var milliseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
