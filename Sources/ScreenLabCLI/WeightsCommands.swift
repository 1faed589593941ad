import ArgumentParser

struct WeightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "weights", abstract: "Inspect, export, import weights files.")
    func run() throws { throw failure("weights is not built yet") }
}
