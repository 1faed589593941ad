import ArgumentParser

struct DataSynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "synth", abstract: "Render synthetic phone screens with exact boxes.")
    func run() throws { throw failure("data synth is not built yet") }
}
