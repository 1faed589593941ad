import ArgumentParser
import Benchmarks
import Detection
import Foundation
import Inference
import Kernels

extension FusedDetector.DenseKernel: ExpressibleByArgument {}

/// `screenlab bench predict`: the fused inference model vs the training graph in eval mode,
/// and the PyTorch / ONNX Runtime peers, in one run.
struct BenchPredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict", abstract: "Inference speed: fused model vs the eval-mode training graph, and the PyTorch / ONNX Runtime peers.",
        discussion: """
        Times the default detector (Configs/models/ui-detector.yaml: anchor-free head, 13 classes, 512×256 input): \
        batch-1 latency and batch-8 throughput of the fused inference model (what predict, evaluate --weights and \
        validation run) and of the training graph in eval mode, medians over interleaved rounds; also the fused model \
        with the peer's architecture (shared SSD head, 13 classes × 3 anchors: torch-reference's detector.py). With \
        --torch-python, torch_bench.py's inference numbers follow in the same run; with --ort also ort_bench.py's \
        ONNX Runtime batch-1 latency (needs onnx and onnxruntime in that environment), then --rounds rounds that \
        alternate ONNX Runtime and the fused peer architecture, with the median of the per-round ratios.
        """)

    @Option(help: "Engine threads (the peers use 2).") var threads = 2
    @Option(help: "Alternating rounds.") var rounds = 3
    @Option(help: "Timed batch-1 runs per contender, over all rounds.") var batch1Runs = 30
    @Option(help: "Timed batch-8 runs per contender, over all rounds.") var batch8Runs = 6
    @Option(help: "Python of a venv with torch: also run torch_bench.py --quick (inference numbers).") var torchPython: String?
    @Flag(help: "Also run ort_bench.py (ONNX Runtime) with that Python.") var ort = false
    @Option(help: "Folder of the PyTorch peer.") var peerFolder = "../shared/peers/torch-reference"
    @Flag(help: "Only the fused model's batch-1 forward pass by layer type (time, share, GFLOP/s), default and peer architecture.") var profile = false
    @Flag(help: "With --profile: every layer on its own line, by module path and shape, instead of by layer type.") var perLayer = false
    @Flag(help: "Only the detectors' dense 3×3 stride-1 layers at batch 1 and 8: F(2×2, 3×3) against F(4×4, 3×3), alternating, --rounds rounds (at least 5), the per-round ratio's median and range.")
    var winogradTiles = false
    @Option(help: "Dense convolutions of the fused model: winograd (the default: Winograd3x3 for stride-1 3×3 layers — F(4×4, 3×3) on planes of 32 tiles and more, F(2×2, 3×3) below — PackedConv2d for the rest), winograd-2x2 (F(2×2, 3×3) on all of them), packed (PackedConv2d for all) or openblas (im2col + sgemm). The peer-architecture line times them all.")
    var denseKernel: FusedDetector.DenseKernel = .winograd

    func validate() throws {
        try OptionBounds.check("threads", threads, OptionBounds.threads)
        try OptionBounds.check("rounds", rounds, OptionBounds.rounds)
        try OptionBounds.check("batch1-runs", batch1Runs, OptionBounds.runs)
        try OptionBounds.check("batch8-runs", batch8Runs, OptionBounds.runs)
        if ort && torchPython == nil { throw usageError("--ort runs ort_bench.py with --torch-python's Python: give both") }
        if winogradTiles && (profile || torchPython != nil) {
            throw usageError("--winograd-tiles times only the 3×3 stride-1 layers: run it without --profile, --torch-python and --ort")
        }
    }

    func run() throws {
        Parallel.threadCount = threads
        do {
            let machine = MachineDescription.current()
            print("bench predict: \(threads) threads, \(rounds) rounds, \(machine.summary), OpenBLAS core \(BLASKernelSelection.coreName), "
                  + "micro-kernel \(VectorISA.current.rawValue)")
            if winogradTiles {
                let benchmark = WinogradTileBenchmark(rounds: max(5, rounds), workers: threads)
                var rows: [WinogradTileBenchmark.Row] = []
                for batch in [1, 8] {
                    for g in try WinogradTileBenchmark.shapes(batch: batch) {
                        rows.append(benchmark.measure(g, runs: batch == 1 ? 60 : 8))
                    }
                }
                print(WinogradTileBenchmark.table(rows))
                return
            }
            if profile {
                for (name, configuration) in [("default model", UIDetectorConfiguration()), ("peer architecture", PredictBenchmark.peerArchitecture)] {
                    print("\(name), fused, batch 1, mean of \(batch1Runs) passes:")
                    let timings = try PredictBenchmark(configuration: configuration)
                        .profile(batch: 1, runs: batch1Runs, perLayer: perLayer, denseKernel: denseKernel)
                    print(PredictBenchmark.profileTable(timings))
                }
                return
            }
            let main = try PredictBenchmark().measure(rounds: rounds, batch1Runs: batch1Runs, batch8Runs: batch8Runs, denseKernel: denseKernel)
            let c = main.configuration
            print("default model (anchor-free, \(c.classCount) classes, \(c.inputWidth)×\(c.inputHeight) input):")
            print(String(format: "  batch 1 latency      fused %7.2f ms   graph (eval) %7.2f ms   → %.2f× faster", main.fusedBatch1, main.graphBatch1, main.graphBatch1 / main.fusedBatch1))
            print(String(format: "  batch 8 throughput   fused %7.1f img/s graph (eval) %7.1f img/s → %.2f×", main.fusedImagesPerSecond, main.graphImagesPerSecond, main.fusedImagesPerSecond / main.graphImagesPerSecond))
            print(String(format: "  folding the model (paid once per predict call): %.2f ms", main.folding))
            let peerShape = try PredictBenchmark(configuration: PredictBenchmark.peerArchitecture)
                .measure(rounds: rounds, batch1Runs: batch1Runs, batch8Runs: batch8Runs, includeGraph: false, includeVariants: true,
                         denseKernel: denseKernel)
            print("peer architecture (anchored SSD head shared across levels, 13 classes × 3 anchors, as torch-reference/detector.py):")
            print(String(format: "  fused (%@ dense kernel) batch 1 %.2f ms, batch 8 %.1f img/s", denseKernel.rawValue, peerShape.fusedBatch1, peerShape.fusedImagesPerSecond))
            for variant in peerShape.variants {
                print(String(format: "  same model, %@: batch 1 %.2f ms (%.2f× the first), batch 8 %.1f img/s",
                             variant.label, variant.batch1, variant.batch1 / peerShape.fusedBatch1, 8000 / variant.batch8))
            }
            guard let torchPython else { return }
            var peers = InferencePeers()
            peers.readTorch(try InferencePeers.runScript(python: torchPython, folder: peerFolder, script: "torch_bench.py", arguments: ["--quick"]))
            if ort { peers.readOnnxRuntime(try InferencePeers.runScript(python: torchPython, folder: peerFolder, script: "ort_bench.py")) }
            for format in ["NCHW", "channels_last"] {
                guard let one = peers.torchBatch1[format], let eight = peers.torchBatch8[format] else { continue }
                print("PyTorch \(format): " + String(format: "batch 1 %.2f ms (PyTorch / fused = %.2f×), batch 8 %.1f img/s (fused / PyTorch = %.2f×)",
                             one, one / peerShape.fusedBatch1, 8000 / eight, peerShape.fusedImagesPerSecond / (8000 / eight)))
            }
            if let latency = peers.onnxRuntimeBatch1 {
                // One ONNX Runtime process against the fused figure measured minutes earlier: a load
                // change between them moves it, so the alternating rounds below are the comparison.
                print(String(format: "ONNX Runtime: batch 1 %.2f ms; fused peer-architecture %.2f ms → ORT / fused = %.2f× (one run each, "
                             + "minutes apart: the alternating rounds below are the comparison); default model fused %.2f ms",
                             latency, peerShape.fusedBatch1, latency / peerShape.fusedBatch1, main.fusedBatch1))
                try onnxRuntimeRounds(python: torchPython)
            } else if ort {
                print("ONNX Runtime: ort_bench.py printed no batch-1 latency")
            }
        } catch {
            throw failure("\(error)")
        }
    }

    /// ONNX Runtime and the fused peer architecture alternating, `rounds` times: ort_bench.py
    /// (a fresh process, 10 untimed and 200 timed runs) then the fused model timed the same way
    /// (`batch1Latencies`), so a change in the machine's load between them hits both; the ratio
    /// is taken per round and its median quoted.
    func onnxRuntimeRounds(python: String) throws {
        let benchmark = try PredictBenchmark(configuration: PredictBenchmark.peerArchitecture)
        var ratios: [Double] = []
        for round in 1...rounds {
            var peers = InferencePeers()
            peers.readOnnxRuntime(try InferencePeers.runScript(python: python, folder: peerFolder, script: "ort_bench.py"))
            guard let latency = peers.onnxRuntimeBatch1 else { throw failure("ort_bench.py printed no batch-1 latency in round \(round)") }
            let distribution = try benchmark.batch1Latencies(denseKernel: denseKernel)
            let fused = distribution.median
            ratios.append(latency / fused)
            print(String(format: "  round %d: ONNX Runtime %.2f ms, fused peer architecture %.2f ms (min %.2f, p90 %.2f) → ORT / fused = %.2f×",
                         round, latency, fused, distribution.minimum, distribution.p90, ratios.last!))
            fflush(stdout)
        }
        let sorted = ratios.sorted()
        print(String(format: "ORT / fused, median of %d alternating rounds: %.2f× (rounds %.2f–%.2f; goal ≥ 1, issue 27's target ≥ 1.5)",
                     rounds, sorted[sorted.count / 2], sorted.first!, sorted.last!))
    }
}
