import Foundation
import NN
import FuzzSupport
@testable import Training

/// `--resume`'s reading of `checkpoints/last/state.json`, fuzzed two ways per input:
/// 1. the input as the file's bytes (libFuzzer's own mutations of the seed corpus), and
/// 2. the input as a list of edits to a real run's state (resume-state/seeds/state.json: vins-long-rules
///    after 12 of 100 epochs), each edit one field set to a boundary or random value — what a
///    hand edit or a damaged disk does — then written and read back through the file format.
/// Whatever the reader and `validateForResume` accept goes on as `Trainer` takes it: the metrics
/// log and its CSV, the plots, the learning-rate schedule at the resumed step, status.json.
/// A crash (trap, sanitizer report) is a finding; thrown errors are the expected outcome.

private let seed: Checkpoint.StateFile = {
    let url = FuzzPaths.package.appendingPathComponent("resume-state/seeds/state.json")
    return try! Checkpoint.decodeState(Data(contentsOf: url), folder: url.path)
}()
private let scratch = FuzzPaths.scratch("resume-state")
private let folder = RunFolder(url: scratch)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeState(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let file = try? Checkpoint.decodeState(data, folder: "input") { resume(file, budgeted: count % 2 == 1) }
    var edits = FuzzBytes(data)
    var file = seed
    while !edits.isEmpty { edit(&file, &edits) }
    if let encoded = try? JSONEncoder().encode(file), let decoded = try? Checkpoint.decodeState(encoded, folder: "edited") {
        resume(decoded, budgeted: count % 3 == 1)
    }
    return 0
}

/// What the trainer does with a state it accepted, up to its first step.
private func resume(_ file: Checkpoint.StateFile, budgeted: Bool) {
    let stepsPerEpoch = seed.state.stepsPerEpoch, configured = seed.state.totalEpochs
    do {
        try file.validateForResume(batchCount: { _ in stepsPerEpoch }, configuredEpochs: configured, budgeted: budgeted, file: "state.json")
    } catch { return }
    var metrics = MetricsLog()
    file.metrics.forEach { metrics.append($0) }
    _ = metrics.csv
    try? TrainingPlots.write(metrics: metrics, to: scratch)
    let state = file.state
    let schedule = WarmupSchedule(baseRate: 0.002, warmupSteps: Int((3 * Double(state.stepsPerEpoch)).rounded()),
                                  totalSteps: state.totalEpochs * state.stepsPerEpoch)
    let rate = schedule.learningRate(atStep: state.step)
    precondition(rate.isFinite && rate >= 0, "learning rate \(rate) at step \(state.step)")
    _ = "epoch \(state.epoch + 1)/\(state.totalEpochs), batch \(state.batch) (step \(state.step)), \(state.totalEpochs - state.epoch) left"
    try? folder.writeStatus(state)
}

/// One edit: a field, then its new value.
private func edit(_ file: inout Checkpoint.StateFile, _ bytes: inout FuzzBytes) {
    let rows = file.metrics.count
    switch bytes.byte() % 24 {
    case 0: file.state.epoch = bytes.int()
    case 1: file.state.batch = bytes.int()
    case 2: file.state.step = bytes.int()
    case 3: file.state.totalEpochs = bytes.int()
    case 4: file.state.stepsPerEpoch = bytes.int()
    case 5: file.state.emaUpdates = bytes.int()
    case 6: file.state.epochSteps = bytes.int()
    case 7: file.state.bestEpoch = bytes.bool() ? nil : bytes.int()
    case 8: file.state.elapsedSeconds = bytes.double()
    case 9: file.state.wallSeconds = bytes.double()
    case 10: file.state.lastValidationSeconds = bytes.double()
    case 11: file.state.epochSeconds = bytes.double()
    case 12: file.state.bestValMAP50 = bytes.bool() ? nil : bytes.double()
    case 13: file.state.optimizerCounters[bytes.name()] = bytes.int()
    case 14: file.state.epochLossSums[bytes.name()] = bytes.double()
    case 15:  // the edit that keeps step consistent, so the later checks are reached
        file.state.step = file.state.epoch &* file.state.stepsPerEpoch &+ file.state.batch
    case 16 where rows > 0: file.metrics[bytes.index(rows)].epoch = bytes.int()
    case 17 where rows > 0: file.metrics[bytes.index(rows)].losses[bytes.name()] = bytes.double()
    case 18 where rows > 0: file.metrics[bytes.index(rows)].learningRate = bytes.double()
    case 19 where rows > 0: file.metrics[bytes.index(rows)].valMAP50 = bytes.bool() ? nil : bytes.double()
    case 20 where rows > 0: file.metrics[bytes.index(rows)].imagesPerSecond = bytes.double()
    case 21 where rows > 0: file.metrics[bytes.index(rows)].seconds = bytes.double()
    case 22 where rows > 0: file.metrics.remove(at: bytes.index(rows))
    case 23 where rows > 0: file.metrics.append(file.metrics[bytes.index(rows)])
    default: file.state.unreadableImages.append(bytes.name())
    }
}
