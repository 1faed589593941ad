import ArgumentParser
import Autograd
import Benchmarks
import Detection
import Foundation
import Kernels
import NN
import Support
import Tensor

/// `screenlab bench engine`: GEMM vs raw BLAS, time per layer type, the training step, peak
/// memory, and (when a PyTorch venv is given) the peer's numbers measured in the same run.
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine",
        abstract: "Engine speed vs raw cblas_sgemm and the PyTorch peer (reference detector, batch 8).",
        discussion: "For a quick look: --quick (3 steps, fewer GEMM repetitions, 1 profiled step).")

    @Option(help: "Timed training steps (median is reported).") var steps = 10
    @Option(help: "Batch size.") var batch = 8
    @Option(help: "Compute threads (the peer uses 2).") var threads = 2
    @Option(help: "Python with torch installed, to run ../shared/peers/torch-reference/torch_bench.py in the same run.")
    var torchPython: String?
    @Option(help: "Folder of the PyTorch peer.") var peerFolder = "../shared/peers/torch-reference"
    @Flag(help: "Skip the GEMM table.") var skipGEMM = false
    @Flag(help: "A short run for a sanity check: 3 timed steps, 3 GEMM repetitions, 1 profiled step (numbers are noisier).")
    var quick = false
    @Option(help: "Dense convolutions (forward passes, stride-1 input gradients, 1×1 weight gradients) of the engine's rows and step: openblas (im2col + sgemm per image), packed (PackedConv2d; row dot products for the weight gradients), winograd (packed, with the 3×3 stride-1 layers by Winograd F(2×2, 3×3)) or winograd-weights (winograd, with those layers' weight gradients in Winograd's domain too).")
    var denseKernels = "openblas"

    func validate() throws {
        try checkDenseKernels(denseKernels)
        try OptionBounds.check("steps", steps, OptionBounds.steps)
        guard batch >= 2 else { throw usageError("--batch must be at least 2 (batch norm in train mode needs it), got \(batch)") }
        try OptionBounds.check("batch", batch, OptionBounds.batch)
        try OptionBounds.check("threads", threads, OptionBounds.threads)
    }

    func run() throws {
        try Conv2dKernel.withDenseKernels(Conv2dKernel.DenseKernels(rawValue: denseKernels)!) { try runBenchmarks() }
    }

    private func runBenchmarks() throws {
        Parallel.threadCount = threads
        let (timedSteps, gemmRepetitions, profiledSteps) = quick ? (min(steps, 3), 3, 1) : (steps, 15, 3)
        let machine = MachineDescription.current()
        print("ScreenLab engine benchmark — \(machine.summary), \(threads) threads, \(Date())\(quick ? " (quick run)" : "")")
        print(BLASKernelSelection.note + (denseKernels == "openblas" ? "" : "; dense convolutions on the \(denseKernels) kernels (--dense-kernels \(denseKernels))"))
        if !skipGEMM {
            print("\n1×1 convolutions of the reference detector at batch \(batch): engine (Variable.conv2d, no-grad tape) vs the faster "
                  + "of two raw cblas_sgemm variants on the same \(threads) threads (median of \(gemmRepetitions))")
            print(GEMMBenchmarkRow.header)
            let rows = try GEMMBenchmark.run(batch: batch, repetitions: gemmRepetitions)
            rows.forEach { print($0) }
            let engineTotal = rows.reduce(0) { $0 + $1.engineMilliseconds }, rawTotal = rows.reduce(0) { $0 + $1.fastestRaw.milliseconds }
            let wins = RawPointwiseGEMM.allCases.map { variant in "\(variant.rawValue) \(rows.filter { $0.fastestRaw.variant == variant }.count)" }
            print(String(format: "all shapes: engine %.1f ms, fastest raw %.1f ms → engine/raw throughput %.3f (target ≥ 0.95); median row %.3f",
                         engineTotal, rawTotal, rawTotal / engineTotal, rows.map(\.throughputRatio).sorted()[rows.count / 2])
                  + "; fastest raw: " + wins.joined(separator: ", "))
            print("\nweight gradients of the same convolutions at batch \(batch): sgemm (dense_kernels: openblas) vs the direct path "
                  + "(dense_kernels: packed) by its two routes, row dot products and lane-major products, \(threads) threads, \(VectorISA.current.rawValue) (median of \(gemmRepetitions))")
            print(WeightGradientBenchmarkRow.header)
            let gradients = try WeightGradientBenchmark.run(batch: batch, repetitions: gemmRepetitions)
            gradients.forEach { print($0) }
            let sgemmTotal = gradients.reduce(0) { $0 + $1.sgemmMilliseconds }, directTotal = gradients.reduce(0) { $0 + $1.directMilliseconds }
            let lanesTotal = gradients.reduce(0) { $0 + $1.laneMajorMilliseconds }
            print(String(format: "all shapes: sgemm %.1f ms, direct %.1f ms (dot products), %.1f ms (lane-major) → sgemm/direct %.2f×, "
                         + "direct/lanes %.2f×", sgemmTotal, directTotal, lanesTotal, sgemmTotal / directTotal, directTotal / lanesTotal)
                  + "; the routes' bits \(gradients.allSatisfy(\.routesAgree) ? "are the same" : "DIFFER")")
            print("\nweight gradients of the default detector's 3×3 stride-1 layers (the FPN's outputs) at batch \(batch): direct sums "
                  + "(dense_kernels: winograd) vs Winograd's domain (dense_kernels: winograd-weights), \(threads) threads, "
                  + "\(VectorISA.current.rawValue) (median of \(gemmRepetitions))")
            print(Winograd3x3WeightGradientRow.header)
            let winogradRows = try Winograd3x3WeightGradientBenchmark.run(batch: batch, repetitions: gemmRepetitions)
            winogradRows.forEach { print($0) }
            let directSum = winogradRows.reduce(0) { $0 + $1.directMilliseconds }, winogradSum = winogradRows.reduce(0) { $0 + $1.winogradMilliseconds }
            print(String(format: "all three: direct %.1f ms, winograd %.1f ms → %.2f×", directSum, winogradSum, directSum / winogradSum))
        }
        let bench = try EngineBenchmark(batch: batch)
        print("\nper layer type, one training step at batch \(batch) (mean of \(profiledSteps) profiled step\(profiledSteps == 1 ? "" : "s"))")
        let timings = try bench.profileLayers(steps: profiledSteps)
        print(LayerTimingTable.render(timings))
        let step = try bench.measureTrainingStep(steps: timedSteps)
        let peak = EngineBenchmark.peakResidentBytes().map { Double($0) / 1e9 } ?? .nan
        let phases = step.medianPhases
        print(String(format: "\ntraining step batch %d: median %.3f s → %.2f img/s (loss %.3e → %.3e); peak RSS %.2f GB (target ≤ 1.5)",
                     batch, step.medianSeconds, step.imagesPerSecond, step.firstLoss, step.lastLoss, peak))
        print(String(format: "  phases (medians): forward %.0f ms, backward %.0f ms, optimizer %.1f ms", 1000 * phases.forward, 1000 * phases.backward, 1000 * phases.optimizer))
        if let torchPython {
            print("\nPyTorch peer (\(peerFolder)/torch_bench.py --quick), same machine, now:")
            let peer = try TorchPeer.run(python: torchPython, folder: peerFolder)
            for (format, imagesPerSecond) in peer.trainingImagesPerSecond.sorted(by: { $0.key > $1.key }) {
                print(String(format: "  %@ training step batch 8: %.2f img/s → ScreenLab / PyTorch = %.2f×", format, imagesPerSecond, step.imagesPerSecond / imagesPerSecond))
            }
        } else {
            print("\n(no --torch-python given: PyTorch peer not run; see Reports/benchmarks.md for how)")
        }
    }
}
