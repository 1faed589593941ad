import Foundation
import XCTest
@testable import Training

/// `bench train --experiment` times an experiment's real step as `train` would run it, so a
/// transfer arm's `init: run:NAME` means that run's weights there too.
final class TrainingThroughputTests: XCTestCase {
    func testAnInitFromAnotherRunResolvesToThatRunsWeights() throws {
        let pretrain = try TinyExperiment.write(name: "pretrain")
        let root = pretrain.deletingLastPathComponent()
        try Data("// marks the repository root for this test\n".utf8).write(to: root.appendingPathComponent("Package.swift"))
        var options = TinyExperiment.options()
        options.runsFolder = root.appendingPathComponent("Experiments/runs")
        let trained = try Trainer.start(experiment: pretrain, overrides: ["epochs=1", "preview_images=0"], options: options)
        _ = try trained.train()

        let transfer = root.appendingPathComponent("transfer.yaml")
        try (String(contentsOf: pretrain, encoding: .utf8) + "\ninit: run:pretrain\n").write(to: transfer, atomically: true, encoding: .utf8)
        let throughput = try TrainingThroughput(experiment: transfer, overrides: [], cacheFolder: TinyExperiment.cache)
        XCTAssertEqual(throughput.setup.config.initWeights,
                       trained.run.weightsFile.standardizedFileURL.path.replacingOccurrences(of: root.standardizedFileURL.path + "/", with: ""))
        let timings = try throughput.run(steps: 1)
        XCTAssertEqual(timings.count, 1)
        XCTAssertEqual(timings[0].images, throughput.batchSize)
        // `bench train --loader-share`: the same steps on batches taken before the clock starts.
        let preloaded = try throughput.run(steps: 2, preloaded: true)
        XCTAssertEqual(preloaded.map(\.images), [throughput.batchSize, throughput.batchSize])
        XCTAssertEqual(preloaded.map(\.waitingSeconds).max() ?? 1, 0, accuracy: 0.001, "no step waits for a batch already taken")
    }
}
