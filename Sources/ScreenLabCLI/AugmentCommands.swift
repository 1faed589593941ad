import ArgumentParser

struct AugmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "augment", abstract: "Preview augmentation presets.")
    func run() throws { throw failure("augment is not built yet") }
}
struct BenchLoaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "loader", abstract: "Data loader throughput vs training throughput.")
    func run() throws { throw failure("bench loader is not built yet") }
}
