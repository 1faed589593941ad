import ArgumentParser
import Autograd
import Detection
import Foundation
import Kernels
import NN
import Support
import Tensor

/// `screenlab demo`: the engine end to end on generated data — the loss must fall.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo",
        abstract: "Train a small conv net on generated images and print the loss falling.")

    @Option(help: "Training epochs (full-batch steps).") var epochs = 40
    @Option(help: "Generated training images.") var images = 64
    @Option(help: "Random seed (same seed and threads → same run).") var seed: UInt64 = 0
    @Option(help: "Compute threads.") var threads = ProcessInfo.processInfo.activeProcessorCount

    func run() throws {
        Parallel.threadCount = max(1, threads)
        let (inputs, labels) = BarImages.make(count: images, seed: seed)
        let (testInputs, testLabels) = BarImages.make(count: 64, seed: seed &+ 1)
        let model = TinyConvNet(seed: seed)
        let optimizer = try AdamW(parameters: model.trainableParameters(), learningRate: 0.02, weightDecay: 1e-4)
        print("engine demo: TinyConvNet (\(model.parameterCount()) parameters) on \(images) generated bar images, \(threads) threads")
        var first: Float?
        var last: Float = .nan
        for epoch in 1...epochs {
            model.train()
            optimizer.zeroGradients()
            let tape = Tape()
            let loss = try model(tape.constant(inputs)).binaryCrossEntropyWithLogits(targets: labels)
            try NonFiniteCheck.check(loss.value, what: "training loss at epoch \(epoch)")
            try tape.backward(loss)
            try optimizer.step()
            last = loss.value.scalarValue
            if first == nil { first = last }
            if epoch == 1 || epoch % 5 == 0 || epoch == epochs {
                print(String(format: "epoch %3d  loss %.5f  held-out accuracy %.1f%%", epoch, last, 100 * accuracy(model, testInputs, testLabels)))
            }
        }
        print(String(format: "loss fell from %.4f to %.5f (%.0f×)", first ?? .nan, last, (first ?? .nan) / last))
    }

    private func accuracy(_ model: TinyConvNet, _ inputs: Tensor, _ labels: Tensor) -> Double {
        model.eval()
        defer { model.train() }
        guard let logits = try? model(Tape.noGradient().constant(inputs)).value else { return .nan }
        let correct = (0..<labels.count).filter { (logits[flat: $0] > 0) == (labels[flat: $0] > 0.5) }.count
        return Double(correct) / Double(labels.count)
    }
}

/// `screenlab bench engine`: GEMM vs raw BLAS, per-op times, the training step, peak memory,
/// and (when a PyTorch venv is given) the peer's numbers measured in the same run.
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine",
        abstract: "Engine speed vs raw cblas_sgemm and the PyTorch peer (reference detector, batch 8).")

    @Option(help: "Timed training steps (median is reported).") var steps = 10
    @Option(help: "Batch size.") var batch = 8
    @Option(help: "Compute threads (the peer uses 2).") var threads = 2
    @Option(help: "Python with torch installed, to run ../shared/peers/torch-reference/torch_bench.py in the same run.")
    var torchPython: String?
    @Option(help: "Folder of the PyTorch peer.") var peerFolder = "../shared/peers/torch-reference"
    @Flag(help: "Skip the GEMM table.") var skipGEMM = false

    func run() throws {
        Parallel.threadCount = max(1, threads)
        let machine = MachineDescription.current()
        print("ScreenLab engine benchmark — \(machine.summary), \(threads) threads, \(Date())")
        if !skipGEMM {
            print("\n1×1 convolutions of the reference detector at batch \(batch): engine vs raw cblas_sgemm, same threads (median of 15)")
            print(GEMMBenchmarkRow.header)
            let rows = GEMMBenchmark.run(batch: batch, repetitions: 15)
            rows.forEach { print($0) }
            let engineTotal = rows.reduce(0) { $0 + $1.engineMilliseconds }, rawTotal = rows.reduce(0) { $0 + $1.rawMilliseconds }
            print(String(format: "all shapes: engine %.1f ms, raw %.1f ms → ratio raw/engine %.3f (target ≥ 0.95); median row ratio %.3f",
                         engineTotal, rawTotal, rawTotal / engineTotal, rows.map(\.ratio).sorted()[rows.count / 2]))
        }
        let bench = EngineBenchmark(batch: batch)
        print("\nper op kind, one training step at batch \(batch) (mean of 3 profiled steps)")
        print(pad("op", 18) + pad("calls", 7) + pad("forward ms", 12) + "backward ms")
        for t in try bench.profileOps() {
            print(pad(t.kind.rawValue, 18) + pad("\(t.calls)", 7) + pad(String(format: "%.1f", t.forwardMilliseconds), 12) + String(format: "%.1f", t.backwardMilliseconds))
        }
        let step = try bench.measureTrainingStep(steps: steps)
        let peak = EngineBenchmark.peakResidentBytes().map { Double($0) / 1e9 } ?? .nan
        let phases = step.medianPhases
        print(String(format: "\ntraining step batch %d: median %.3f s → %.2f img/s (loss %.3e → %.3e); peak RSS %.2f GB (target ≤ 1.5)",
                     batch, step.medianSeconds, step.imagesPerSecond, step.firstLoss, step.lastLoss, peak))
        print(String(format: "  phases (medians): forward %.0f ms, backward %.0f ms, optimizer %.0f ms", 1000 * phases.forward, 1000 * phases.backward, 1000 * phases.optimizer))
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

func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count) }
