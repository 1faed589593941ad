import Foundation
import TestSupport
@testable import Training

/// The tiny experiment of `TinyExperimentFiles` with the trainer options tests use.
enum TinyExperiment {
    static let repositoryRoot = TinyExperimentFiles.repositoryRoot
    static var cache: URL { TinyExperimentFiles.cache }

    static func write(name: String = "tiny", extra: String = "", head: String = "anchor-free") throws -> URL {
        try TinyExperimentFiles.write(name: name, extra: extra, head: head)
    }

    static func options() -> Trainer.Options {
        var options = Trainer.Options()
        options.cacheFolder = cache
        options.showProgress = false
        options.log = { _ in }
        return options
    }
}
