import Augment
import Data
import Detection
import Evaluation
import Inference
import Kernels
import Foundation
import NN
import Tensor
import TestSupport
import Weights
import XCTest
@testable import Training

final class TrainerTests: XCTestCase {
    /// A run that cannot start (here: a split the data does not have) leaves no run folder behind.
    func testARunThatCannotStartLeavesNoFolder() throws {
        let experiment = try TinyExperiment.write(name: "orphan")
        var options = TinyExperiment.options()
        let runs = experiment.deletingLastPathComponent().appendingPathComponent("runs")
        options.runsFolder = runs
        XCTAssertThrowsError(try Trainer.start(experiment: experiment, overrides: ["data.train=nope"], options: options)) { error in
            XCTAssertTrue("\(error)".contains("nope"), "\(error)")
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: runs.appendingPathComponent("orphan").path)) ?? []
        XCTAssertEqual(left, [], "no orphan run folder")
        // `--runs /dev/null` names what it is instead of a raw Cocoa error.
        options.runsFolder = URL(fileURLWithPath: "/dev/null")
        XCTAssertThrowsError(try Trainer.start(experiment: experiment, overrides: [], options: options)) { error in
            XCTAssertTrue("\(error)".contains("/dev/null") && "\(error)".contains("not a folder; give --runs a folder"), "\(error)")
        }
    }

    /// `add_synthetic` end to end: a dataset that marks only Text and Icon trains with synthetic
    /// screens beside it; the run says which classes each source leaves unlabeled, the synthetic
    /// screens join the training split only, and the screens carry those classes to the loss.
    func testADatasetTrainsWithSyntheticScreensAdded() throws {
        let tiny = try ExperimentData.synthesize(ExperimentConfig.SyntheticData(count: 24, seed: 5, screensPerApp: 3, valFraction: 0.2,
                                                                               testFraction: 0.2), cacheFolder: TinyExperiment.cache, log: { _ in })
        var real = tiny.dataset
        let kept = Set(["Text", "Icon"].compactMap { real.classes.firstIndex(of: $0) })
        for index in real.samples.indices {
            real.samples[index].annotations.removeAll { !kept.contains($0.classIndex) }
            real.samples[index].accessibilityElements = nil
        }
        let folder = try TestFolders.make("mixed")
        try YOLOWriter.write(real, to: folder.appendingPathComponent("real"), images: .copy)
        let experiment = try TinyExperiment.write(name: "mixed")
        var text = try String(contentsOf: experiment, encoding: .utf8)
        text = text.replacingOccurrences(of: "  synthetic: {count: 24, seed: 5, screens_per_app: 3, val_fraction: 0.2, test_fraction: 0.2}",
                                         with: "  dataset: \(folder.appendingPathComponent("real").path)\n"
                                             + "  add_synthetic: {count: 24, seed: 7, screens_per_app: 3, val_fraction: 0.2, test_fraction: 0.2}")
        try text.write(to: experiment, atomically: true, encoding: .utf8)

        var options = TinyExperiment.options()
        options.runsFolder = folder.appendingPathComponent("runs")
        let lines = LockedLines()
        options.log = { lines.append($0) }
        let trainer = try Trainer.start(experiment: experiment, overrides: ["epochs=1"], options: options)
        let summary = try trainer.train()
        XCTAssertEqual(summary["status"] as? String, "finished")
        let dataset = trainer.setup.data.dataset
        let added = dataset.samples.filter { $0.id.hasPrefix("synthetic/") }
        XCTAssertFalse(added.isEmpty)
        let train = Set(dataset.splits["train"] ?? [])
        for (index, sample) in dataset.samples.enumerated() where sample.id.hasPrefix("synthetic/") {
            XCTAssertTrue(train.contains(index), "\(sample.id) is a training screen")
        }
        XCTAssertEqual((dataset.splits["val"] ?? []).count, (real.splits["val"] ?? []).count, "validation is the dataset's alone")
        let realUnlabeled = Set(try XCTUnwrap(dataset.samples[0].unlabeledClasses).map { dataset.classes[$0] })
        XCTAssertFalse(realUnlabeled.contains("Text") || realUnlabeled.contains("Icon"))
        XCTAssertTrue(realUnlabeled.contains("Slider") && realUnlabeled.contains("Checkbox (Selected)"), "\(realUnlabeled)")
        XCTAssertTrue(added.allSatisfy { $0.unlabeledClasses?.contains(dataset.classes.firstIndex(of: "Text")!) == false })
        XCTAssertTrue(lines.all.contains { $0.contains("no loss on") && $0.contains("Slider") }, lines.all.joined(separator: "\n"))
    }

    /// `dense_kernels: packed`, `winograd` and `winograd-weights` reach the convolutions: the same
    /// seed trains to other weights than on sgemm (the sums round in another order), close to them,
    /// and the same again when repeated (deterministic) and on either vector instruction set.
    func testDenseKernelsPackedAndWinogradTrainTheSameRunAnotherRounding() throws {
        let experiment = try TinyExperiment.write(name: "dense-kernels")
        var options = TinyExperiment.options()
        options.runsFolder = experiment.deletingLastPathComponent().appendingPathComponent("runs")
        func weights(_ kernel: String) throws -> [String: [Float]] {
            let trainer = try Trainer.start(experiment: experiment, overrides: ["epochs=1", "dense_kernels=\(kernel)"], options: options)
            XCTAssertEqual(try trainer.train()["status"] as? String, "finished")
            return Dictionary(uniqueKeysWithValues: trainer.setup.model.stateTensors().map { ($0.name, $0.tensor.values) })
        }
        let sgemm = try weights("openblas"), packed = try weights("packed"), winograd = try weights("winograd")
        let winogradWeights = try weights("winograd-weights")
        XCTAssertEqual(try weights("packed"), packed, "the packed kernels are deterministic")
        XCTAssertEqual(try weights("winograd"), winograd, "the Winograd and direct weight-gradient kernels are deterministic")
        XCTAssertEqual(try weights("winograd-weights"), winogradWeights, "the Winograd-domain weight gradients are deterministic")
        // Every kernel with an AVX-512 twin gives its AVX2 bits, so a packed run does not depend on
        // which of them the CPU runs (OpenBLAS, for the stem's and 3×3 weight gradients, is one core type here).
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        for isa in VectorISA.supported where isa != measured {
            VectorISA.use(isa)
            XCTAssertEqual(try weights("packed"), packed, "the same run on \(isa.rawValue) as on \(measured.rawValue)")
            XCTAssertEqual(try weights("winograd"), winograd, "the same Winograd run on \(isa.rawValue) as on \(measured.rawValue)")
            XCTAssertEqual(try weights("winograd-weights"), winogradWeights, "the same winograd-weights run on \(isa.rawValue)")
        }
        XCTAssertNotEqual(packed, sgemm, "dense_kernels reached the kernels")
        XCTAssertNotEqual(winograd, packed, "dense_kernels: winograd reached the kernels")
        XCTAssertNotEqual(winogradWeights, winograd, "dense_kernels: winograd-weights reached the 3×3 weight gradients")
        let stemName = try XCTUnwrap(packed.keys.sorted().first { $0.contains("stem") && $0.hasSuffix("weight") }, "\(packed.keys.sorted())")
        for run in [packed, winograd, winogradWeights] {
            let stem = try XCTUnwrap(run[stemName]), stemSGEMM = try XCTUnwrap(sgemm[stemName])
            XCTAssertEqual(stem.count, stemSGEMM.count)
            for (a, b) in zip(stem, stemSGEMM) { XCTAssertEqual(a, b, accuracy: 1e-2, stemName) }
        }
    }

    /// On two threads the step runs on the setup's `WorkerTeam` (helpers kept awake between
    /// loops); its partitions are `forEachChunk`'s, so the run is the same bits as with the
    /// workers parked in Dispatch after every loop.
    func testTheStepsWorkerTeamTrainsTheSameBits() throws {
        let experiment = try TinyExperiment.write(name: "worker-team")
        var options = TinyExperiment.options()
        options.runsFolder = experiment.deletingLastPathComponent().appendingPathComponent("runs")
        func weights(team: Bool) throws -> [String: [Float]] {
            try TrainingSetup.$keepsWorkersAwake.withValue(team) {
                let trainer = try Trainer.start(experiment: experiment, overrides: ["epochs=1", "threads=2", "dense_kernels=packed"], options: options)
                XCTAssertEqual(trainer.setup.workers?.size, team ? 2 : nil)
                XCTAssertEqual(try trainer.train()["status"] as? String, "finished")
                if let team = trainer.setup.workers { XCTAssertGreaterThan(team.loopsRun, 100, "the step's loops ran on the team") }
                return Dictionary(uniqueKeysWithValues: trainer.setup.model.stateTensors().map { ($0.name, $0.tensor.values) })
            }
        }
        let parked = try weights(team: false)
        XCTAssertFalse(parked.isEmpty)
        XCTAssertEqual(try weights(team: true), parked, "the same run with the step's helpers kept awake")
    }

    /// `data.cache: ram` decodes the training screens once before the loader starts (the run
    /// says how many and how large) and trains the same bits as reading them from disk; a cache
    /// that would not fit is refused with a message and the run reads from disk.
    func testCachedScreensTrainTheSameBits() throws {
        let experiment = try TinyExperiment.write(name: "screen-cache")
        func weights(cache: String) throws -> (weights: [String: [Float]], log: [String]) {
            let lines = LockedLines()
            var options = TinyExperiment.options()
            options.runsFolder = experiment.deletingLastPathComponent().appendingPathComponent("runs-\(cache)")
            options.log = { lines.append($0) }
            let trainer = try Trainer.start(experiment: experiment, overrides: ["epochs=1", "threads=2", "data.cache=\(cache)"], options: options)
            XCTAssertEqual(trainer.setup.source.count, 11)
            XCTAssertEqual(try trainer.train()["status"] as? String, "finished")
            return (Dictionary(uniqueKeysWithValues: trainer.setup.model.stateTensors().map { ($0.name, $0.tensor.values) }), lines.all)
        }
        let read = try weights(cache: "none"), kept = try weights(cache: "ram")
        XCTAssertFalse(read.weights.isEmpty)
        XCTAssertEqual(kept.weights, read.weights, "the same run with the screens kept in memory")
        XCTAssertFalse(read.log.contains { $0.contains("data.cache") })
        XCTAssertTrue(kept.log.contains { $0.contains("data.cache: ram: 11 training screens decoded") }, "\(kept.log)")

        let screens = try DatasetSource(dataset: Dataset(root: experiment.deletingLastPathComponent(), classes: ["Text"], samples: [
            Sample(id: "a", imagePath: "a.png", width: 1000, height: 1000)]), split: nil)
        let lines = LockedLines()
        let refused = TrainingSetup.cachingDecoded(screens, threads: 2, log: { lines.append($0) }, available: 5_000_000)
        XCTAssertNil(refused.cache)
        XCTAssertTrue(lines.all.contains { $0.contains("data.cache: ram refused for the training screens: the screens need") && $0.contains("read from disk") }, "\(lines.all)")
    }

    /// `sampler.repeat_screens` reaches the loader: the screens whose manifest column matches are
    /// drawn that many times an epoch, the run says how many; a condition that matches no
    /// training screen stops the run before it starts.
    func testRepeatScreensDrawAManifestColumnsScreensMoreOften() throws {
        let tiny = try ExperimentData.synthesize(ExperimentConfig.SyntheticData(count: 24, seed: 5, screensPerApp: 3, valFraction: 0.2,
                                                                               testFraction: 0.2), cacheFolder: TinyExperiment.cache, log: { _ in })
        let folder = try TestFolders.make("repeat-screens")
        let data = folder.appendingPathComponent("screens")
        try YOLOWriter.write(tiny.dataset, to: data, images: .copy)
        // A `source` column as vins-ui's manifest has: every third screen "phone".
        let manifest = data.appendingPathComponent("manifest.tsv")
        let rows = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").map(String.init)
        let marked = rows.dropFirst().enumerated().map { $1 + "\t" + ($0 % 3 == 0 ? "phone" : "desktop") }
        try ([rows[0] + "\tsource"] + marked).joined(separator: "\n").appending("\n").write(to: manifest, atomically: true, encoding: .utf8)
        let experiment = try TinyExperiment.write(name: "repeat-screens")
        var text = try String(contentsOf: experiment, encoding: .utf8)
        text = text.replacingOccurrences(of: "  synthetic: {count: 24, seed: 5, screens_per_app: 3, val_fraction: 0.2, test_fraction: 0.2}",
                                         with: "  dataset: \(data.path)")
        try (text + "\nsampler: {repeat_screens: {source=phone: 3}}\n").write(to: experiment, atomically: true, encoding: .utf8)

        var options = TinyExperiment.options()
        options.runsFolder = folder.appendingPathComponent("runs")
        let lines = LockedLines()
        options.log = { lines.append($0) }
        let trainer = try Trainer.start(experiment: experiment, overrides: ["epochs=1"], options: options)
        let dataset = trainer.setup.data.dataset
        let train = dataset.splits["train"] ?? []
        let phones = train.filter { dataset.samples[$0].metadata?["source"] == "phone" }.count
        XCTAssertGreaterThan(phones, 0)
        // The preset's class-aware factors, times 3 on the phone screens.
        let sampler = trainer.setup.loader.sampler
        let plain = RepeatFactorSampler(annotations: train.map { dataset.samples[$0].annotations }, threshold: sampler.threshold)
        for (position, index) in train.enumerated() {
            XCTAssertEqual(sampler.imageFactors[position], plain.imageFactors[position] * (dataset.samples[index].metadata?["source"] == "phone" ? 3 : 1))
        }
        XCTAssertTrue(lines.all.contains("sampler: \(phones) of \(train.count) training screens with source=phone drawn ×3"), lines.all.joined(separator: "\n"))
        XCTAssertEqual(try trainer.train()["status"] as? String, "finished")

        XCTAssertThrowsError(try Trainer.start(experiment: experiment, overrides: ["sampler.repeat_screens={source=tablet: 2}"], options: options)) { error in
            XCTAssertTrue("\(error)".contains("source=tablet matches none of the \(train.count) training screens (source takes desktop, phone)"), "\(error)")
        }
    }

    func testARunWritesEveryArtifactAndItsConfigReadsBack() throws {
        let file = try TinyExperiment.write()
        var options = TinyExperiment.options()
        options.runsFolder = file.deletingLastPathComponent().appendingPathComponent("runs")
        let trainer = try Trainer.start(experiment: file, overrides: ["epochs=2"], options: options)
        let summary = try trainer.train()
        let run = trainer.run
        XCTAssertEqual(summary["status"] as? String, "finished")
        XCTAssertEqual(summary["epochs"] as? Int, 2)
        let test = try XCTUnwrap(summary["test"] as? [String: Any])
        XCTAssertNotNil(test["map50"] as? Double, "a test mAP@0.5")
        XCTAssertEqual((test["classes"] as? [[String: Any]])?.count, 13)
        for path in ["metrics.csv", "config.resolved.yaml", "class_weights.json", "thresholds.yaml", "model.slw", "summary.json",
                     "reports/val/metrics.json", "reports/test/report.html", "checkpoints/last/state.json", "plots/loss.svg", "plots/map.svg",
                     "predictions-test.png", "status.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: run.url.appendingPathComponent(path).path), "missing \(path)")
        }
        let csv = try String(contentsOf: run.metricsFile, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(csv.count, 3, "header + one row per epoch")
        XCTAssertEqual(csv[0], "epoch,loss_cls,loss_dfl,loss_giou,lr,val_map50,val_map_center,images_per_second,seconds")
        let weights = try WeightsFile.read(contentsOf: run.weightsFile)
        XCTAssertEqual(weights.header.classes.count, 13)
        XCTAssertEqual(weights.header.architecture.name, "ui-detector")
        XCTAssertEqual(weights.header.provenance.runID, run.id)
        // The resolved config is itself an experiment file that reads back to the same settings.
        let resolved = try String(contentsOf: run.resolvedConfigFile, encoding: .utf8)
        var reread = try ExperimentConfig.parse(yaml: resolved, file: trainer.config.file)
        reread.name = trainer.config.name
        XCTAssertEqual(reread, trainer.config)

        // The shipped weights, reloaded as inference loads them, reproduce the reported test mAP exactly.
        let detector = try TrainedDetector.load(contentsOf: run.weightsFile)
        let dataset = trainer.setup.data.dataset
        let samples = try dataset.samples(inSplit: "test")
        let output = try detector.predictor(scoreThreshold: 0.001, useStoredThresholds: false, batchSize: 4)
            .predict(samples, imageURL: dataset.imageURL(of:), label: "test", showProgress: false)
        let result = try DetectionEvaluator(classNames: detector.classes, samples: samples, predictions: output.predictions).evaluate()
        XCTAssertEqual(result.map50, test["map50"] as? Double)
        XCTAssertThrowsError(try TrainedDetector.load(contentsOf: run.lastCheckpoint.appendingPathComponent("optimizer.slw"))) { error in
            XCTAssertTrue("\(error)".contains("momentum") || "\(error)".contains("adam") || "\(error)".contains("missing"), "\(error)")
        }
    }

    func testFrozenBackboneWeightsAndStatisticsStayByteIdentical() throws {
        let file = try TinyExperiment.write(extra: "freeze: backbone\nema: false")
        var options = TinyExperiment.options()
        options.runsFolder = file.deletingLastPathComponent().appendingPathComponent("runs")
        let trainer = try Trainer.start(experiment: file, overrides: ["epochs=1", "data.evaluate_test=false", "preview_images=0"], options: options)
        let before = Dictionary(uniqueKeysWithValues: trainer.setup.model.stateTensors().map { ($0.name, $0.tensor.values) })
        try trainer.train()
        let after = try WeightsFile.read(contentsOf: trainer.run.lastCheckpoint.appendingPathComponent("model.slw")).state
        var checked = 0, moved = 0
        for (name, values) in before {
            if name.hasPrefix("backbone.") {
                XCTAssertEqual(after[name]?.values.map(\.bitPattern), values.map(\.bitPattern), "\(name) changed although frozen")
                checked += 1
            } else if after[name]?.values != values {
                moved += 1
            }
        }
        XCTAssertGreaterThan(checked, 50, "weights and running statistics of the backbone")
        XCTAssertGreaterThan(moved, 10, "the FPN and head still train")
    }

    func testNonFiniteLossStopsNamingTheTermAndStepAndWritesNoCheckpoint() throws {
        let file = try TinyExperiment.write()
        var options = TinyExperiment.options()
        options.runsFolder = file.deletingLastPathComponent().appendingPathComponent("runs")
        let trainer = try Trainer.start(experiment: file, overrides: [], options: options)
        // A damaged initial weight (as from a bad init file) makes every class logit NaN.
        let bias = try XCTUnwrap(trainer.setup.model.namedParameters().first { $0.name == "head.outputs.0.bias" }?.parameter)
        bias.value = try Tensor(repeating: .nan, shape: bias.shape)
        XCTAssertThrowsError(try trainer.train()) { error in
            guard case let TrainingError.nonFiniteLoss(term, _, step) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(term, "cls")
            XCTAssertEqual(step, 0)
            XCTAssertTrue("\(error)".contains("keeps its last good checkpoint"))
        }
        let status = try String(contentsOf: trainer.run.statusFile, encoding: .utf8)
        XCTAssertTrue(status.contains("\"failed\""), status)
        XCTAssertFalse(FileManager.default.fileExists(atPath: trainer.run.lastCheckpoint.path), "no checkpoint of a failed step")
    }

    func testInitLoadsByNameAndSkipsAHeadOfAnotherClassCount() throws {
        let file = try TinyExperiment.write()
        let detector = try UIDetectorConfiguration(options: ["width_multiplier": "0.25", "fpn_channels": "16", "head_convolutions": "1"],
                                                   classCount: 5, inputHeight: 128, inputWidth: 64)
        let source = try UIDetector(configuration: detector, seed: 99)
        let header = WeightsHeader(architecture: ModelArchitecture(name: "ui-detector"), input: InputSpec(width: 64, height: 128),
                                   normalization: InputNormalization(mean: [0, 0, 0], std: [1, 1, 1]), classes: (0..<5).map { "c\($0)" },
                                   provenance: Provenance(created: "2026-11-24T00:00:00Z"))
        let weightsURL = file.deletingLastPathComponent().appendingPathComponent("source.slw")
        try WeightsFile(header: header, tensors: source.stateTensors()).write(to: weightsURL)
        var options = TinyExperiment.options()
        var lines: [String] = []
        options.log = { lines.append($0) }
        options.runsFolder = file.deletingLastPathComponent().appendingPathComponent("runs")
        let trainer = try Trainer.start(experiment: file, overrides: ["init=\(weightsURL.path)"], options: options)
        let report = try XCTUnwrap(trainer.setup.transferReport)
        XCTAssertEqual(Set(report.shapeMismatched.map(\.name)), Set((0..<3).flatMap { ["head.outputs.\($0).weight", "head.outputs.\($0).bias"] }))
        XCTAssertTrue(report.missing.isEmpty && report.unexpected.isEmpty)
        XCTAssertEqual(trainer.setup.model.backbone.stem.conv.weight.value.values, source.backbone.stem.conv.weight.value.values)
        XCTAssertTrue(lines.contains { $0.contains("skipped 6 of another shape") }, "\(lines)")
    }

    func testACorruptTrainingImageIsSkippedWithAWarningAndCounted() throws {
        let file = try TinyExperiment.write()
        var options = TinyExperiment.options()
        options.cacheFolder = file.deletingLastPathComponent().appendingPathComponent("cache")  // its own copy, damaged below
        options.runsFolder = file.deletingLastPathComponent().appendingPathComponent("runs")
        var warnings: [String] = []
        options.log = { if $0.hasPrefix("warning:") { warnings.append($0) } }
        let trainer = try Trainer.start(experiment: file, overrides: ["epochs=1", "preview_images=0"], options: options)
        let dataset = trainer.setup.data.dataset
        let victim = dataset.imageURL(of: dataset.samples[dataset.splits["train"]![0]])
        let bytes = try Data(contentsOf: victim)
        try bytes.prefix(bytes.count / 3).write(to: victim)  // truncated mid-stream
        let summary = try trainer.train()
        XCTAssertEqual(summary["status"] as? String, "finished")
        XCTAssertEqual(summary["unreadable_images"] as? [String], [victim.path])
        XCTAssertEqual(summary["unreadable_image_count"] as? Int, 1)
        XCTAssertTrue(warnings.contains { $0.contains(victim.lastPathComponent) && $0.contains("skipped unreadable image") }, "\(warnings)")
    }
}

/// Log lines collected from the trainer's threads.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
