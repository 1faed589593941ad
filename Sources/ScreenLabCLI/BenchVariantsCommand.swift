import ArgumentParser
import Benchmarks
import Foundation
import Kernels

/// `screenlab bench variants MODEL.yaml... [--input 320x640]`: the model-family table's latency side.
struct BenchVariantsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "variants", abstract: "Fused batch-1 latency, parameters and weights size of several detector configurations, interleaved.",
        discussion: """
        Each model config (Configs/models/*.yaml) is built with seed-0 weights and --classes classes, at its own input and at \
        each --input WIDTHxHEIGHT, folded into the fused inference model, and timed at batch 1 on random images; the \
        contenders alternate over --rounds rounds and the medians are printed as a Markdown table with the ratio to the first.
        """)

    @Argument(help: "Model configs (.yaml).") var models: [String]
    @Option(name: .long, help: "Also time each model at this input, WIDTHxHEIGHT (repeatable; multiples of 32).") var input: [String] = []
    @Option(help: "Classes of the head (vins-ui: 14).") var classes = 14
    @Option(help: "Engine threads.") var threads = 2
    @Option(help: "Alternating rounds.") var rounds = 5
    @Option(help: "Timed batch-1 runs per variant, over all rounds.") var runs = 60

    func validate() throws {
        guard !models.isEmpty else { throw usageError("give at least one model config (.yaml)") }
        try OptionBounds.check("threads", threads, OptionBounds.threads)
        try OptionBounds.check("rounds", rounds, OptionBounds.rounds)
        try OptionBounds.check("runs", runs, OptionBounds.runs)
        guard (1...1000).contains(classes) else { throw usageError("--classes must be 1…1000, got \(classes)") }
        _ = try inputs()
    }

    func inputs() throws -> [(width: Int, height: Int)?] {
        try [nil] + input.map { text in
            guard let (w, h) = parsePixelSize(text), (32...4096).contains(w), (32...4096).contains(h), w % 32 == 0, h % 32 == 0 else {
                throw usageError("--input must be WIDTHxHEIGHT in multiples of 32 (32–4096), e.g. 320x640; got '\(text)'")
            }
            return (w, h)
        }
    }

    func run() throws {
        Parallel.threadCount = threads
        do {
            let benchmark = try VariantBenchmark(modelFiles: models, inputs: try inputs(), classCount: classes)
            print("bench variants: \(benchmark.variants.count) variants, \(threads) threads, \(rounds) rounds, \(runs) runs each, \(MachineDescription.current().summary)")
            print(VariantBenchmark.table(try benchmark.measure(rounds: rounds, runs: runs)), terminator: "")
        } catch let error as ValidationError {
            throw error
        } catch {
            throw failure("\(error)")
        }
    }
}
