import Foundation

/// The batches of one epoch, in order. Dropping this object (or `cancel()`) stops the workers
/// after their current batch.
public final class EpochBatches {
    private let production: BatchProduction
    public let count: Int

    init(production: BatchProduction, count: Int) {
        self.production = production
        self.count = count
    }

    deinit { production.cancel() }

    public func cancel() { production.cancel() }

    /// The next batch, nil at the end of the epoch; rethrows a failure to read or augment a sample.
    public func next() throws -> Batch? { try production.take()?.batch }
}

/// The batches of every epoch from a first one on, in order, made by one set of workers.
/// Dropping this object (or `cancel()`) stops the workers after their current batch.
public final class BatchStream {
    private let production: BatchProduction

    init(production: BatchProduction) { self.production = production }

    deinit { production.cancel() }

    public func cancel() { production.cancel() }

    /// The next batch with its epoch and its index in that epoch; nil only after `cancel()`.
    public func next() throws -> (epoch: Int, index: Int, batch: Batch)? { try production.take() }

    /// Returns once the workers are as far ahead as the prefetch bound lets them and idle.
    public func waitUntilAhead() { production.waitUntilAhead() }
}

/// Batches numbered across epochs (global index g: the epochs' batches one after another,
/// from batch 0 of the first epoch). Workers claim numbers in turn, from `firstBatch` on, and
/// stop `prefetch` numbers ahead of the consumer; finished batches wait in a reorder buffer.
final class BatchProduction {
    enum Event: Equatable {
        /// A worker took batch `index` (global); `ahead` batches are now claimed but not yet taken.
        case claimed(index: Int, ahead: Int)
        case finished(index: Int)
    }

    private let firstEpoch: Int
    /// Number of epochs to serve; nil: no end.
    private let epochs: Int?
    private let prefetch: Int
    private let inline: Bool
    private let observer: ((Event) -> Void)?
    private let makeJob: (Int) -> BatchJob
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var jobs: [BatchJob] = []
    /// Global index of each known epoch's first batch, plus the end of the last known epoch.
    private var epochStarts = [0]
    private var nextToClaim = 0
    private var nextToTake = 0
    private var finished: [Int: Result<Batch, Error>] = [:]
    private var cancelled = false

    /// `firstBatch` must lie in the first epoch: numbers below it are never claimed.
    init(firstEpoch: Int, firstBatch: Int, epochs: Int?, prefetch: Int, inline: Bool, observer: ((Event) -> Void)?,
         makeJob: @escaping (Int) -> BatchJob) {
        self.firstEpoch = firstEpoch
        nextToClaim = firstBatch
        nextToTake = firstBatch
        self.epochs = epochs
        self.prefetch = prefetch
        self.inline = inline
        self.observer = observer
        self.makeJob = makeJob
    }

    func start(workers: Int) {
        for worker in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.name = "screenlab-loader-\(worker)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// With the lock held: the job and in-epoch index of global batch `index`, learning epochs
    /// as needed; nil past the last epoch.
    private func locate(_ index: Int) -> (epochOffset: Int, job: BatchJob, batch: Int)? {
        while index >= epochStarts.last! {
            if let epochs, jobs.count == epochs { return nil }
            let job = makeJob(firstEpoch + jobs.count)
            jobs.append(job)
            epochStarts.append(epochStarts.last! + job.batchCount)
        }
        var offset = jobs.count - 1
        while epochStarts[offset] > index { offset -= 1 }
        return (offset, jobs[offset], index - epochStarts[offset])
    }

    private func work() {
        while true {
            condition.lock()
            var claim: (epochOffset: Int, job: BatchJob, batch: Int)?
            while !cancelled {
                claim = locate(nextToClaim)
                if claim == nil || nextToClaim < nextToTake + prefetch { break }
                condition.wait()
            }
            guard !cancelled, let (_, job, batch) = claim else { condition.unlock(); return }
            let index = nextToClaim
            nextToClaim += 1
            observer?(.claimed(index: index, ahead: nextToClaim - nextToTake))
            condition.unlock()
            let result = Result { try job.makeBatch(batch) }
            condition.lock()
            finished[index] = result
            observer?(.finished(index: index))
            condition.broadcast()
            condition.unlock()
        }
    }

    func take() throws -> (epoch: Int, index: Int, batch: Batch)? {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled, let (epochOffset, job, batch) = locate(nextToTake) else { return nil }
        let index = nextToTake
        if inline {
            condition.unlock()
            let result = Result { try job.makeBatch(batch) }
            condition.lock()
            finished[index] = result
        }
        while finished[index] == nil, !cancelled { condition.wait() }
        guard let result = finished.removeValue(forKey: index) else { return nil }
        nextToTake += 1
        if case .failure = result { cancelled = true }
        condition.broadcast()
        return (firstEpoch + epochOffset, batch, try result.get())
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the workers have made every batch they may make ahead (the prefetch bound is
    /// reached, or the last epoch is claimed) and none is being made: a benchmark then times the
    /// trainer with the loader idle.
    func waitUntilAhead() {
        if inline { return }  // no workers: batches are made by `take()` itself
        condition.lock()
        defer { condition.unlock() }
        while !cancelled {
            let full = nextToClaim >= nextToTake + prefetch || locate(nextToClaim) == nil
            if full && finished.count >= nextToClaim - nextToTake { return }
            condition.wait()
        }
    }
}
