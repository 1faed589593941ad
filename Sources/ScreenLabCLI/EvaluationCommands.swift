import ArgumentParser

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "evaluate", abstract: "Score detections against a dataset.")
    func run() throws { throw failure("evaluate is not built yet") }
}
struct ThresholdsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "thresholds", abstract: "Pick per-class confidence thresholds.")
    func run() throws { throw failure("thresholds is not built yet") }
}
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "compare", abstract: "Compare evaluation reports per class.")
    func run() throws { throw failure("compare is not built yet") }
}
struct BenchEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "evaluate", abstract: "Time the evaluator on a large generated input.")
    func run() throws { throw failure("bench evaluate is not built yet") }
}
