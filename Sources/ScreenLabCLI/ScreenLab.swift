import ArgumentParser
import Support
import Weights

/// `screenlab`: thin subcommands that parse arguments, call a library target and print.
/// Any logic a test would want to reach lives in the library targets, not here.
@main
struct ScreenLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenlab",
        abstract: "Train, evaluate and compare UI-element detectors for screen readers.",
        version: ScreenLabVersion.description,
        subcommands: [
            TrainCommand.self,
            RunsCommand.self,
            PredictCommand.self,
            DataCommand.self,
            AugmentCommand.self,
            EvaluateCommand.self,
            EvaluateOrderCommand.self,
            ErrorsCommand.self,
            ThresholdsCommand.self,
            CompareCommand.self,
            ServeCommand.self,
            WeightsCommand.self,
            ExportCommand.self,
            BenchCommand.self,
        ])

    /// ArgumentParser's own `main`, except that an error raised while Ctrl-C is removing the
    /// output's staging defers to the interruption: exit 130 and "interrupted: …", not a write
    /// error about the file the signal just took away.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            SignalCleanup.yieldToAnInterruption()
            exit(withError: error)
        }
    }
}

/// What `screenlab --version` prints: the release and the weights format it reads and writes
/// (the number that decides whether a `.slw` from another copy loads).
enum ScreenLabVersion {
    static let release = "0.5.0"
    static var description: String {
        "screenlab \(release) (weights format \(FormatVersion.current.major).\(FormatVersion.current.minor))"
    }
}

/// `screenlab bench ...`: speed and memory measured in one run, printed as ratios.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: engine vs raw BLAS and the PyTorch peer, evaluator, data loader.",
        subcommands: [BenchEngineCommand.self, BenchTrainCommand.self, BenchPredictCommand.self, BenchVariantsCommand.self, BenchEvaluateCommand.self, BenchLoaderCommand.self, BenchAllreduceCommand.self])
}
