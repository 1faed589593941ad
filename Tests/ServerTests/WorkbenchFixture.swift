import Foundation
import Registry
import TestSupport
import Training

/// Two tiny runs trained once per test process into their own registry — real run folders with
/// reports, predictions, weights and thresholds, as `screenlab serve` finds them after training.
enum WorkbenchFixture {
    struct Runs {
        var registryFile: URL
        var first: String
        var second: String
    }

    private static let trained: Result<Runs, Error> = Result {
        let file = try TinyExperimentFiles.write(name: "served")
        let folder = file.deletingLastPathComponent()
        var options = Trainer.Options()
        options.cacheFolder = TinyExperimentFiles.cache
        options.showProgress = false
        options.log = { _ in }
        options.runsFolder = folder.appendingPathComponent("runs")
        options.registryFile = folder.appendingPathComponent("runs.sqlite")
        var ids: [String] = []
        for seed in [0, 1] {
            let trainer = try Trainer.start(experiment: file, overrides: ["epochs=2", "seed=\(seed)"], options: options)
            _ = try trainer.train()
            ids.append(trainer.run.id)
        }
        return Runs(registryFile: options.registryFile!, first: ids[0], second: ids[1])
    }

    static func runs() throws -> Runs { try trained.get() }

    /// A copy of the registry and both run folders, for tests that damage or change them.
    static func copy() throws -> Runs {
        let runs = try runs()
        let target = try TestFolders.make("served-copy")
        let source = runs.registryFile.deletingLastPathComponent()
        for name in ["runs", "runs.sqlite"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
        }
        let registryFile = target.appendingPathComponent("runs.sqlite")
        // Point the copied rows at the copied folders.
        let registry = try RunRegistry(file: registryFile)
        for id in [runs.first, runs.second] {
            var results = try registry.details(id)
            func moved(_ path: String) -> String { path.replacingOccurrences(of: source.path + "/", with: target.path + "/") }
            results.run.runFolder = results.run.runFolder.map(moved)
            results.artifacts = results.artifacts.map { ArtifactRecord(kind: $0.kind, name: $0.name, path: moved($0.path)) }
            try registry.record(results)
        }
        return Runs(registryFile: registryFile, first: runs.first, second: runs.second)
    }
}
