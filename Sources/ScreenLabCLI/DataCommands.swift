import ArgumentParser

// Owned by the datasets work: check, stats, split (synth lives in SynthCommand.swift).
struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data", abstract: "Inspect, validate, split and generate datasets.",
        subcommands: [DataSynthCommand.self])
}
