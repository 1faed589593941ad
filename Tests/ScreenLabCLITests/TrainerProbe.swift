import Foundation
import TestSupport
@testable import Training

/// What a test must know of a run before it starts one as a process: the batches per epoch
/// (repeat-factor sampling makes epochs differ in length), so it can pause the child just past
/// the first epoch's checkpoint.
enum TrainerProbe {
    static func batchCounts(experiment: URL, epochs: Int) throws -> [Int] {
        var options = Trainer.Options()
        options.cacheFolder = TinyExperimentFiles.cache
        options.showProgress = false
        options.log = { _ in }
        let probe = try Trainer.start(experiment: experiment, overrides: ["epochs=\(epochs)"], options: options)
        defer { try? FileManager.default.removeItem(at: probe.run.url) }
        return (0..<epochs).map { probe.setup.loader.batchCount(epoch: $0) }
    }
}
