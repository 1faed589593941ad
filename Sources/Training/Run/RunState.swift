import Foundation

/// Where a run is, saved with every checkpoint: with the weights, the optimizer and EMA state
/// it is everything needed to continue bit for bit (the loader is a pure function of the seed,
/// the epoch and the batch index, so it needs only the position).
public struct RunState: Codable, Equatable {
    public enum Status: String, Codable { case running, finished, failed, interrupted }

    /// Next epoch to train (0-based) and next batch in it.
    public var epoch = 0
    public var batch = 0
    /// Optimizer steps done.
    public var step = 0
    /// Epochs the schedule runs for (fitted to the time budget after the first epoch).
    public var totalEpochs: Int
    /// Steps per epoch (fixed by the data, the sampler's seed and the batch size).
    public var stepsPerEpoch: Int
    /// Step seconds so far (loader wait included), over every session of the run.
    public var elapsedSeconds = 0.0
    /// Wall-clock seconds of the finished epochs, validation and checkpoints included: what a
    /// time budget counts.
    public var wallSeconds = 0.0
    /// Seconds of the last validation pass (the final reports take about three).
    public var lastValidationSeconds = 0.0
    public var bestValMAP50: Double?
    public var bestEpoch: Int?
    public var emaUpdates = 0
    public var optimizerCounters: [String: Int] = [:]
    /// Sums of each loss term over the current epoch's steps so far (mid-epoch checkpoints).
    public var epochLossSums: [String: Double] = [:]
    public var epochSteps = 0
    public var epochSeconds = 0.0
    /// Images that could not be read during training (skipped, each named once).
    public var unreadableImages: [String] = []
    public var status = Status.running
    public var stopReason: String?

    public init(totalEpochs: Int, stepsPerEpoch: Int) {
        self.totalEpochs = totalEpochs
        self.stepsPerEpoch = stepsPerEpoch
    }

    public var isFinishedTraining: Bool { epoch >= totalEpochs }
}
