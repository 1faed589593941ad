import ArgumentParser

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Train a small conv net on generated data and print the loss falling.")
    func run() throws { throw failure("demo is not built yet") }
}
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine", abstract: "Engine speed vs raw BLAS and the PyTorch peer.")
    func run() throws { throw failure("bench engine is not built yet") }
}
