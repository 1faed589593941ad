import ArgumentParser

/// `screenlab`: thin subcommands that parse arguments, call a library target and print.
/// Any logic a test would want to reach lives in the library targets, not here.
@main
struct ScreenLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenlab",
        abstract: "Train, evaluate and compare UI-element detectors for screen readers.",
        subcommands: [
            TrainCommand.self,
            RunsCommand.self,
            PredictCommand.self,
            DataCommand.self,
            AugmentCommand.self,
            EvaluateCommand.self,
            ThresholdsCommand.self,
            CompareCommand.self,
            WeightsCommand.self,
            ExportCommand.self,
            BenchCommand.self,
        ])
}

/// `screenlab bench ...`: speed and memory measured in one run, printed as ratios.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: engine vs raw BLAS and the PyTorch peer, evaluator, data loader.",
        subcommands: [BenchEngineCommand.self, BenchTrainCommand.self, BenchPredictCommand.self, BenchEvaluateCommand.self, BenchLoaderCommand.self])
}
