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
    /// Steps of the first epoch (fixed by the data, the sampler's seed and the batch size). Later
    /// epochs may differ by a few: repeat-factor sampling rounds each image's repeats at random
    /// per epoch. The schedule spans `totalEpochs × stepsPerEpoch` steps.
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
    /// Processes and hosts of the session that trained last (`mpirun -np N`; nil: one process).
    /// A distributed run resumes bit for bit with the same process count.
    public var ranks: Int?
    public var hosts: [String]?

    public init(totalEpochs: Int, stepsPerEpoch: Int) {
        self.totalEpochs = totalEpochs
        self.stepsPerEpoch = stepsPerEpoch
    }

    public var isFinishedTraining: Bool { epoch >= totalEpochs }
}

extension RunState {
    /// Refuses a state a run could not have written — numbers a hand edit or a damaged disk left —
    /// before any of them reaches arithmetic: a huge `totalEpochs` trapped on overflow, a negative
    /// `step` resumed with a negative learning rate. `batchCount(e)` is what the loader makes of
    /// epoch e with the run's data and batch size now: the first epoch's count must be
    /// `stepsPerEpoch`, and `step` the batches of the epochs before plus `batch`. The epoch count
    /// is the config's unless a time budget fitted it. The message names the file and the value.
    func validate(batchCount: (Int) -> Int, configuredEpochs: Int, budgeted: Bool, file: String) throws {
        func fail(_ reason: String) -> CheckpointError {
            CheckpointError(folder: file, reason: "\(reason); the checkpoint is not one this run could have written (restore it, or start the run again without --resume)")
        }
        let expected = batchCount(0)
        guard stepsPerEpoch == expected else {
            throw fail("stepsPerEpoch is \(stepsPerEpoch) but the run's data and batch size give \(expected) batches in the first epoch")
        }
        guard (1...100_000).contains(totalEpochs), budgeted || totalEpochs == configuredEpochs else {
            throw fail("totalEpochs is \(totalEpochs) but the run's config trains \(configuredEpochs)")
        }
        guard (0...totalEpochs).contains(epoch), epoch < totalEpochs || batch == 0 else {
            throw fail("epoch \(epoch) lies outside \(totalEpochs) epochs")
        }
        let batchesOfEpoch = epoch < totalEpochs ? batchCount(epoch) : 1
        guard (0..<batchesOfEpoch).contains(batch) else {
            throw fail("batch \(batch) lies outside epoch \(epoch)'s \(batchesOfEpoch) batches")
        }
        // Summed epoch by epoch, stopping once past `step`, so a hostile epoch costs no more than the steps claimed.
        var stepsBefore = 0
        for e in 0..<epoch where stepsBefore <= step { stepsBefore += batchCount(e) }
        guard step == stepsBefore + batch else {
            throw fail("step is \(step) but the \(epoch) epochs before hold \(stepsBefore) batches, plus batch \(batch), \(stepsBefore + batch)")
        }
        guard (0...step).contains(emaUpdates), (0...batch).contains(epochSteps) else {
            throw fail("emaUpdates \(emaUpdates) or epochSteps \(epochSteps) is outside what \(step) steps give")
        }
        for (name, value) in [("elapsedSeconds", elapsedSeconds), ("wallSeconds", wallSeconds), ("lastValidationSeconds", lastValidationSeconds),
                              ("epochSeconds", epochSeconds)] where !(value.isFinite && value >= 0 && value < 1e9) {
            throw fail("\(name) is \(value)")
        }
        if let bestValMAP50, !(0...1).contains(bestValMAP50) { throw fail("bestValMAP50 is \(bestValMAP50)") }
        if let bestEpoch, !(0..<max(epoch, 1)).contains(bestEpoch) { throw fail("bestEpoch is \(bestEpoch) of \(epoch) epochs done") }
        if let (name, value) = epochLossSums.first(where: { !$0.value.isFinite }) { throw fail("epochLossSums.\(name) is \(value)") }
        if let (name, value) = optimizerCounters.first(where: { !(0...step).contains($0.value) }) { throw fail("optimizerCounters.\(name) is \(value)") }
        if let ranks, !(1...65_536).contains(ranks) { throw fail("ranks is \(ranks)") }
    }
}

extension Checkpoint {
    func validateForResume(batchCount: (Int) -> Int, configuredEpochs: Int, budgeted: Bool, file: String) throws {
        try StateFile(state: state, metrics: metrics).validateForResume(batchCount: batchCount, configuredEpochs: configuredEpochs,
                                                                        budgeted: budgeted, file: file)
    }
}

extension Checkpoint.StateFile {
    /// What `--resume` takes from `state.json`: the state (`RunState.validate`) and the metrics
    /// rows, which go on into metrics.csv, the plots and the registry (an epoch of Int.max
    /// trapped on `epoch + 1` there). A checkpoint is written after its epoch's row, so the rows
    /// are distinct epochs before `state.epoch`, with the values a run writes.
    func validateForResume(batchCount: (Int) -> Int, configuredEpochs: Int, budgeted: Bool, file: String) throws {
        try state.validate(batchCount: batchCount, configuredEpochs: configuredEpochs, budgeted: budgeted, file: file)
        func fail(_ reason: String) -> CheckpointError {
            CheckpointError(folder: file, reason: "\(reason); the checkpoint is not one this run could have written (restore it, or start the run again without --resume)")
        }
        var seen = Set<Int>()
        for (index, row) in metrics.enumerated() {
            let name = "metrics[\(index)]"
            guard (0..<state.epoch).contains(row.epoch), seen.insert(row.epoch).inserted else {
                throw fail("\(name).epoch is \(row.epoch): rows are distinct epochs before the next epoch, \(state.epoch)")
            }
            if let (term, value) = row.losses.first(where: { !$0.value.isFinite || abs($0.value) > 1e9 }) { throw fail("\(name).losses.\(term) is \(value)") }
            for (field, value) in [("learningRate", row.learningRate), ("imagesPerSecond", row.imagesPerSecond), ("seconds", row.seconds)]
            where !(value.isFinite && value >= 0 && value < 1e9) {
                throw fail("\(name).\(field) is \(value)")
            }
            for (field, value) in [("valMAP50", row.valMAP50), ("valMAPCenter", row.valMAPCenter)] {
                if let value, !(0...1).contains(value) { throw fail("\(name).\(field) is \(value)") }
            }
        }
    }
}
