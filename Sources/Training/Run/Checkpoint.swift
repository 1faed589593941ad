import Foundation
import NN
import Support
import Tensor
import Weights

/// A checkpoint is a folder: `model.slw` (the model in the versioned weights format, readable by
/// `screenlab weights inspect`), `optimizer.slw` and `ema.slw` (their state tensors in the same
/// format, under the model's parameter names with a prefix) and `state.json` (`RunState` plus the
/// metrics so far). It is written beside its final place and swapped in with renames, so a
/// process killed at any moment leaves either the old or the new checkpoint complete.
public struct Checkpoint {
    public var model: WeightsFile
    public var optimizer: [(name: String, tensor: Tensor)]
    public var ema: [(name: String, tensor: Tensor)]?
    public var state: RunState
    public var metrics: [MetricsLog.Row]

    struct StateFile: Codable {
        var state: RunState
        var metrics: [MetricsLog.Row]
        var format = 1
    }

    public init(model: WeightsFile, optimizer: [(name: String, tensor: Tensor)], ema: [(name: String, tensor: Tensor)]?,
                state: RunState, metrics: [MetricsLog.Row]) {
        self.model = model
        self.optimizer = optimizer
        self.ema = ema
        self.state = state
        self.metrics = metrics
    }

    public func write(to folder: URL) throws {
        let manager = FileManager.default
        let parent = folder.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        StaleStaging.sweep(in: parent)  // a checkpoint that failed on a full disk in a killed run
        let staging = parent.appendingPathComponent(".\(folder.lastPathComponent).tmp-\(getpid())")
        try? manager.removeItem(at: staging)
        try manager.createDirectory(at: staging, withIntermediateDirectories: true)
        try model.write(to: staging.appendingPathComponent("model.slw"))
        try WeightsFile(header: model.header, tensors: optimizer).write(to: staging.appendingPathComponent("optimizer.slw"))
        if let ema { try WeightsFile(header: model.header, tensors: ema).write(to: staging.appendingPathComponent("ema.slw")) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(StateFile(state: state, metrics: metrics)), to: staging.appendingPathComponent("state.json"))
        let previous = parent.appendingPathComponent("\(folder.lastPathComponent).old")
        try? manager.removeItem(at: previous)
        if manager.fileExists(atPath: folder.path) { try manager.moveItem(at: folder, to: previous) }
        try manager.moveItem(at: staging, to: folder)
        try? manager.removeItem(at: previous)
    }

    /// Reads `folder`, or the `.old` copy a kill between the two renames left behind.
    public static func read(from folder: URL) throws -> Checkpoint {
        let manager = FileManager.default
        var folder = folder
        if !manager.fileExists(atPath: folder.appendingPathComponent("state.json").path) {
            let previous = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).old")
            guard manager.fileExists(atPath: previous.appendingPathComponent("state.json").path) else {
                throw CheckpointError(folder: folder.path, reason: "no checkpoint here (the run stopped before its first checkpoint; start it again without --resume)")
            }
            folder = previous
        }
        let model = try WeightsFile.read(contentsOf: folder.appendingPathComponent("model.slw"))
        let optimizer = try WeightsFile.read(contentsOf: folder.appendingPathComponent("optimizer.slw")).tensors
        let emaURL = folder.appendingPathComponent("ema.slw")
        let ema = manager.fileExists(atPath: emaURL.path) ? try WeightsFile.read(contentsOf: emaURL).tensors : nil
        let file = try decodeState(try Data(contentsOf: folder.appendingPathComponent("state.json")), folder: folder.path)
        return Checkpoint(model: model, optimizer: optimizer, ema: ema, state: file.state, metrics: file.metrics)
    }

    static func decodeState(_ data: Data, folder: String) throws -> StateFile {
        do { return try JSONDecoder().decode(StateFile.self, from: data) } catch {
            throw CheckpointError(folder: folder, reason: "state.json is damaged: \(error)")
        }
    }
}

public struct CheckpointError: Error, CustomStringConvertible {
    public let folder: String
    public let reason: String
    public var description: String { "\(folder): \(reason)" }
}
