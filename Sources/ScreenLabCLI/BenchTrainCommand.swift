import ArgumentParser
import Autograd
import Benchmarks
import Detection
import Foundation
import Kernels
import Training

/// `screenlab bench train`: a real run's training throughput against the bare step of
/// `bench engine`, measured in one run in interleaved rounds (medians), and peak memory.
struct BenchTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train", abstract: "Real training throughput (loader, assignment, loss, backward, optimizer, EMA) vs the bare engine step.",
        discussion: """
        Both are measured in the same process, in alternating rounds, and reported as medians: the bare step is \
        `bench engine`'s (the reference detector, Σx² loss, SGD) at the same batch size; the real step is the \
        experiment's own (default: vins-baseline when ../shared is present, else quickstart), fed by its loader. \
        Target: real ≥ 0.9 × bare. Peak memory is the process's high-water mark (VmHWM). With --torch-python and \
        --real-peer, every round also runs Peers/torch-peer/train_step_bench.py (the same detector, ATSS, \
        QFL/GIoU/DFL, clipping, AdamW and EMA in PyTorch, NCHW and channels_last) and the ratios real / PyTorch \
        are printed per layout (targets ≥ 1.5× NCHW, ≥ 1.3× channels_last, issue 14). With --versus KEY=VALUE, \
        every round also times the real step with those overrides, the two in alternating order, and prints the \
        second's speed against the first's: two settings compared in one process (an override that changes nothing, \
        such as the experiment's own seed, times the same step twice: this machine's noise floor).
        """)

    @Option(help: "Experiment whose step is timed (default: Experiments/vins-baseline.yaml, or quickstart.yaml without the shared data).")
    var experiment: String?
    @Option(name: .customLong("set"), help: "Overrides for the experiment (repeatable).") var overrides: [String] = []
    @Option(help: "Batch size for both.") var batchSize = 8
    @Option(help: "Engine threads.") var threads = 2
    @Option(help: "Alternating rounds.") var rounds = 3
    @Option(help: "Timed steps per round and kind.") var steps = 6
    @Option(help: "Python of a venv with torch: also time the PyTorch peer's NCHW step (batch 8) in every round.")
    var torchPython: String?
    @Option(help: "Folder of the PyTorch peer.") var peerFolder = "../shared/peers/torch-reference"
    @Flag(help: "With --torch-python: time the PyTorch peer of the real step instead (Peers/torch-peer: same model, ATSS, QFL/GIoU/DFL, clipping, AdamW, EMA; NCHW and channels_last) at the same batch and threads.")
    var realPeer = false
    @Option(help: "Ground-truth boxes per synthetic image of the real-step peer (mosaic and copy-paste put more boxes in a training image than the split's mean).")
    var peerBoxes = 35
    @Flag(help: "Only profile the real step: forward and backward time per layer type over --steps steps, and the time outside the tape (optimizer, clipping, EMA; waiting for data).")
    var profile = false
    @Flag(help: "With --profile: a row per layer, labelled by its module path, instead of a row per layer type.")
    var perLayer = false
    @Flag(help: "Also time, every round, the real step on batches the loader made before the clock started (the loader idle): the ratio to the step fed as it trains is what the loader's CPU costs the step. The PyTorch real-step peer feeds synthetic tensors.")
    var loaderShare = false
    @Option(help: "Dense convolutions (forward passes, stride-1 input gradients, 1×1 weight gradients) of both steps: openblas (im2col + sgemm per image), packed (PackedConv2d, the inference path's kernel, filters packed per call; row dot products for the weight gradients), winograd (packed, with the 3×3 stride-1 layers by Winograd F(2×2, 3×3)) or winograd-weights (winograd, with those layers' weight gradients in Winograd's domain too). Default: the experiment's dense_kernels for the real step, openblas for the bare one.")
    var denseKernels: String?
    @Option(help: "Also time, every round, the experiment's real step with these overrides (repeatable, as --set; e.g. --versus workers=0), the two steps in alternating order, and print its speed against the experiment's (median and range of the per-round ratios). Builds a second model and loader: peak memory counts both.")
    var versus: [String] = []

    func validate() throws {
        guard batchSize >= 2 else { throw usageError("--batch-size must be at least 2 (batch norm in train mode needs it), got \(batchSize)") }
        try OptionBounds.check("batch-size", batchSize, OptionBounds.batch)
        try OptionBounds.check("threads", threads, OptionBounds.threads)
        try OptionBounds.check("rounds", rounds, OptionBounds.rounds)
        try OptionBounds.check("steps", steps, OptionBounds.steps)
        guard !realPeer || torchPython != nil else { throw usageError("--real-peer needs --torch-python") }
        try OptionBounds.check("peer-boxes", peerBoxes, 0...1000)
        if let denseKernels { try checkDenseKernels(denseKernels) }
        if perLayer && !profile { throw usageError("--per-layer splits --profile's table by layer: give --profile too") }
        if profile && !versus.isEmpty {
            throw usageError("--versus compares whole steps over rounds and --profile times one step's layers: use one or the other")
        }
    }

    /// Peers/torch-peer of this checkout.
    var realPeerFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Peers/torch-peer").path
    }

    func run() throws {
        guard let denseKernels else { return try runBenchmarks() }
        try Conv2dKernel.withDenseKernels(Conv2dKernel.DenseKernels(rawValue: denseKernels)!) { try runBenchmarks() }
    }

    private func runBenchmarks() throws {
        Parallel.threadCount = threads
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let vins = root.appendingPathComponent("../shared/datasets/vins-ui").standardizedFileURL
        let file = experiment.map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(FileManager.default.fileExists(atPath: vins.path) ? "Experiments/vins-baseline.yaml" : "Experiments/quickstart.yaml")
        do {
            let settings = overrides + ["batch_size=\(batchSize)", "threads=\(threads)"] + (denseKernels.map { ["dense_kernels=\($0)"] } ?? [])
            // A bad --versus key or value is reported, as --versus, before anything is built or timed.
            if !versus.isEmpty {
                _ = try ExperimentConfig.load(contentsOf: file, overrides: settings)
                do { _ = try ExperimentConfig.load(contentsOf: file, overrides: settings + versus) } catch var error as ExperimentConfigError where error.file == "--set" {
                    error.file = "--versus"
                    throw error
                }
            }
            let log = { (line: String) in FileHandle.standardError.write(Data((line + "\n").utf8)) }
            let real = try TrainingThroughput(experiment: file, overrides: settings, log: log)
            let other = versus.isEmpty ? nil : try TrainingThroughput(experiment: file, overrides: settings + versus, log: log)
            _ = try real.run(steps: 2)
            _ = try other?.run(steps: 2)
            if profile {
                if perLayer { real.labelLayersByPath() }
                let recorded = OpProfile()
                let timings = try real.run(steps: steps, profile: recorded)
                let perStep = { (part: KeyPath<TrainingThroughput.Timing, Double>) in 1000 * timings.reduce(0) { $0 + $1[keyPath: part] } / Double(max(1, timings.count)) }
                print("bench train --profile: \(file.lastPathComponent), batch \(batchSize), \(threads) threads, mean of \(timings.count) real steps")
                print(LayerTimingTable.render(EngineBenchmark.LayerTiming.averaged(recorded, steps: timings.count),
                                              heading: perLayer ? "layer (module path; batch norms by type)" : "layer type"))
                print(String(format: "whole step %.1f ms (%.1f img/s); outside the tape: optimizer, clipping and EMA %.1f ms, waiting for data %.1f ms",
                             perStep(\.seconds), Double(batchSize) / (perStep(\.seconds) / 1000), perStep(\.optimizerSeconds), perStep(\.waitingSeconds)))
                return
            }
            let bare = try EngineBenchmark(configuration: .reference, batch: batchSize)
            var bareRates: [Double] = [], realRates: [Double] = [], waits: [Double] = [], peerRates: [Double] = [], preloadedRates: [Double] = []
            print("bench train: \(file.lastPathComponent), batch \(batchSize), \(threads) threads, \(rounds) rounds × \(steps) steps")
            var realPeerWorkload: RealTorchPeer.Workload?
            var nchwRates: [Double] = [], channelsLastRates: [Double] = [], versusRates: [Double] = []
            let versusName = versus.joined(separator: " ")
            func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
            /// Images a second of the median step of `timings` (the real step fed, preloaded or --versus).
            func rate(_ timings: [TrainingThroughput.Timing], batch: Int) throws -> Double {
                guard !timings.isEmpty else { throw BenchmarkError(message: "the loader gave no batch to time") }
                return Double(batch) / median(timings.map(\.seconds))
            }
            if realPeer, let torchPython {
                let (detector, boxes) = try RealTorchPeer.realStep(experiment: file, overrides: overrides)
                print("PyTorch peer of the real step (\(realPeerFolder)): " + (try RealTorchPeer.checkModel(python: torchPython, folder: realPeerFolder, configuration: detector)))
                realPeerWorkload = RealTorchPeer.Workload(batch: batchSize, threads: threads, classes: detector.classCount, boxesPerImage: peerBoxes)
                print("  peer: synthetic images, \(peerBoxes) fixed random UI-like boxes per image (the training split has \(boxes) per image before augmentation), "
                      + "\(steps) timed steps after 2 warm-up steps per layout, a fresh process per round")
            }
            for round in 1...rounds {
                let b = try bare.measureTrainingStep(warmup: 1, steps: steps, progress: false)
                // The compared step goes first in even rounds, so a drifting machine favours neither.
                let versusFirst = round % 2 == 0
                if let other, versusFirst { versusRates.append(try rate(other.run(steps: steps), batch: other.batchSize)) }
                let timings = try real.run(steps: steps)
                if let other, !versusFirst { versusRates.append(try rate(other.run(steps: steps), batch: other.batchSize)) }
                bareRates.append(b.imagesPerSecond)
                realRates.append(try rate(timings, batch: batchSize))
                waits.append(timings.reduce(0) { $0 + $1.waitingSeconds } / max(timings.reduce(0) { $0 + $1.seconds }, 1e-9))
                var shareText = ""
                if loaderShare {
                    preloadedRates.append(try rate(real.run(steps: steps, preloaded: true), batch: batchSize))
                    shareText = String(format: ", on batches made beforehand %.1f img/s (%.2f× fed)", preloadedRates.last!, preloadedRates.last! / realRates.last!)
                }
                var peerText = ""
                if let realPeerWorkload, let torchPython {
                    let peer = try RealTorchPeer.run(python: torchPython, folder: realPeerFolder, workload: realPeerWorkload, steps: steps)
                    nchwRates.append(peer.measurements["NCHW"]!.imagesPerSecond)
                    channelsLastRates.append(peer.measurements["channels_last"]!.imagesPerSecond)
                    peerText = String(format: ", PyTorch real step NCHW %.1f img/s, channels_last %.1f img/s (%.0f positives/image)",
                                      nchwRates.last!, channelsLastRates.last!, peer.measurements["NCHW"]!.positivesPerImage)
                } else if let torchPython, let nchw = try TorchPeer.run(python: torchPython, folder: peerFolder).trainingImagesPerSecond["NCHW"] {
                    peerRates.append(nchw)
                    peerText = String(format: ", PyTorch NCHW step (batch 8) %.1f img/s", nchw)
                }
                let versusText = versusRates.last.map { String(format: ", versus (%@) %.1f img/s (%.2f×)", versusName, $0, $0 / realRates.last!) } ?? ""
                print(String(format: "  round %d: bare step %.1f img/s, real step %.1f img/s (%.2f×), waiting for data %.1f%%",
                             round, b.imagesPerSecond, realRates.last!, realRates.last! / b.imagesPerSecond, 100 * waits.last!) + versusText + shareText + peerText)
                fflush(stdout)  // a round takes minutes with the peer: show it when it ends
            }
            let ratios = zip(realRates, bareRates).map { $0 / $1 }
            print(String(format: "median: bare %.1f img/s, real %.1f img/s → real / bare = %.2f× (rounds %.2f–%.2f; target ≥ 0.9)",
                         median(bareRates), median(realRates), median(ratios), ratios.min()!, ratios.max()!))
            if !versusRates.isEmpty {
                let ratios = zip(versusRates, realRates).map { $0 / $1 }
                print(String(format: "versus (%@): %.1f img/s against %.1f → %.3f× the experiment's real step (median of rounds; rounds %.2f–%.2f, %d of %d above 1)",
                             versusName, median(versusRates), median(realRates), median(ratios), ratios.min()!, ratios.max()!,
                             ratios.filter { $0 > 1 }.count, ratios.count))
            }
            if !preloadedRates.isEmpty {
                let shares = zip(preloadedRates, realRates).map { $0 / $1 }
                print(String(format: "real step on batches made beforehand: %.1f img/s, %.2f× the step fed by the loader (rounds %.2f–%.2f): the loader's CPU costs the step %.0f%%",
                             median(preloadedRates), median(shares), shares.min()!, shares.max()!, 100 * (1 - 1 / median(shares))))
            }
            if !peerRates.isEmpty {
                let peerRatios = zip(realRates, peerRates).map { $0 / $1 }
                print(String(format: "real / PyTorch NCHW step = %.2f× (rounds %.2f–%.2f; target ≥ 1)", median(peerRatios), peerRatios.min()!, peerRatios.max()!))
            }
            for (name, rates, target) in [("NCHW", nchwRates, 1.5), ("channels_last", channelsLastRates, 1.3)] where !rates.isEmpty {
                let ratios = zip(realRates, rates).map { $0 / $1 }
                print(String(format: "real / PyTorch real step %@ = %.2f× (median of rounds; rounds %.2f–%.2f; PyTorch median %.1f img/s; target ≥ %.1f)",
                             name, median(ratios), ratios.min()!, ratios.max()!, median(rates), target))
            }
            if let peak = EngineBenchmark.peakResidentBytes() {
                print(String(format: "peak memory (VmHWM) %.2f GB at batch %d", Double(peak) / 1e9, batchSize))
            }
            // A trained image costs about three forward passes of multiply-adds (forward, input
            // gradient, weight gradient): the usual estimate, exact for every GEMM-shaped layer.
            let forward = try PredictBenchmark(configuration: real.detectorConfiguration).profile(batch: 1, runs: 1).reduce(0) { $0 + $1.gigaflops }
            let achieved = 3 * forward * median(realRates), peak = SGEMMPeak.measure()
            print(String(format: "convolutions %.3f GFLOP per image forward, ≈ 3× per trained image: real step %.0f GFLOP/s = %.0f%% of this machine's sgemm peak (%.0f GFLOP/s, 1024³, %d threads)",
                         forward, achieved, 100 * achieved / peak, peak, threads))
        } catch {
            throw failure("\(error)")
        }
    }
}

/// `--dense-kernels` of `bench train` and `bench engine`: one of the `dense_kernels` key's choices.
func checkDenseKernels(_ value: String) throws {
    guard ExperimentConfig.DenseKernels(rawValue: value) == nil else { return }
    let choices = ExperimentConfig.DenseKernels.allCases.map(\.rawValue)
    throw usageError("--dense-kernels \(value): use " + choices.dropLast().joined(separator: ", ") + " or " + choices.last!)
}
