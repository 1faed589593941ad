import Detection
import Foundation
import Kernels
import NN
import Tensor

/// A trained `UIDetector` compiled for inference: every batch norm folded into its
/// convolution, ReLU/ReLU6 applied in the convolutions' output pass, the FPN's upsample and
/// add in one pass, the head's last convolutions writing the flat per-prior matrix directly
/// (no permute), no tape, and activation memory planned once per batch size and reused.
///
/// Its output is `UIDetector`'s in eval mode — [N · priorCount, outputsPerPrior], rows in
/// (image, level, row, column, anchor) order — up to rounding (`FusedDetectorTests`: ≤ 1e-4).
/// It reads the weights when built: build a new one after the weights change (EMA swaps,
/// training steps). Calls are serialised by a lock (the plans' buffers are shared).
public final class FusedDetector {
    /// How the dense (non-depthwise) convolutions run.
    public enum DenseKernel: String, CaseIterable, Sendable {
        /// `Winograd3x3` for the 3×3 layers at stride 1 (the FPN outputs, the anchored head) —
        /// F(4×4, 3×3) where a plane fills two micro-kernel calls (`Winograd3x3.prefersTile4`),
        /// F(2×2, 3×3) on smaller ones — and `PackedConv2d` for the other dense layers. The default.
        case winograd
        /// As `winograd` with F(2×2, 3×3) on every such layer: the default until 2026-12-01, kept
        /// as the reference F(4×4)'s gain and rounding are measured against.
        case winogradTile2 = "winograd-2x2"
        /// `PackedConv2d` for every dense layer (weights packed once, columns gathered per
        /// 16-position tile, bias and clamp in registers): the direct reference for `winograd`.
        case packed
        /// `FusedConv2d`'s OpenBLAS path (im2col panels, sgemm, epilogue per panel): kept as
        /// the reference `bench predict --dense-kernel` measures the packed kernel against.
        case openBLAS = "openblas"
    }

    public let configuration: UIDetectorConfiguration
    public let graph: InferenceGraph
    public let denseKernel: DenseKernel
    /// Per graph layer, its weights prepared for its kernel (nil for depthwise layers, and for all with `.openBLAS`).
    let denseFilters: [DenseFilters?]
    let positionsPerImage: Int
    private var plans: [ActivationPlan] = []
    /// Helpers that stay awake between a batch-1 pass's ~50 parallel loops (`WorkerTeam`); made
    /// at the first such call, remade if the worker count changes.
    private var team: WorkerTeam?
    /// Run batch-1 passes on a `WorkerTeam` rather than parking workers after every loop:
    /// 1.01–1.04× faster on an idle machine; with a training run busy beside it, within ±10 % of parked
    /// workers (0.91–1.11× the time, Reports/benchmarks.md). Larger batches, whose loops are
    /// long, never use it.
    public var keepsWorkersAwake = true
    private let lock = NSLock()

    // The team's helper threads hold the team, not the model: stop them with it.
    deinit { team?.stop() }
    /// Plans kept (the predictor uses its batch size and one shorter last batch).
    static let plansKept = 2

    /// Throws, naming the layer, for a model the fused path cannot run (an activation that is
    /// not ReLU/ReLU6, a layer of an unexpected type).
    public init(_ model: UIDetector, denseKernel: DenseKernel = .winograd) throws {
        let c = model.configuration
        configuration = c
        self.denseKernel = denseKernel
        var graph = InferenceGraph(inputChannels: 3, height: c.inputHeight, width: c.inputWidth)
        try model.lower(into: &graph)
        let offset = graph.flatPositions
        guard graph.flatRowChannels.map({ offset * $0 == c.priorCount * c.outputsPerPrior }) == true else {
            throw InferenceModelError(layer: "head", reason: "head outputs do not add up to \(c.priorCount) priors × \(c.outputsPerPrior) values")
        }
        self.graph = graph
        positionsPerImage = offset
        var dense = [DenseFilters?](repeating: nil, count: graph.layers.count)
        for case let .convolution(index, input, _) in graph.steps where denseKernel != .openBLAS {
            let layer = graph.layers[index], x = graph.values[input]
            let g = try layer.geometry(batch: 1, height: x.height, width: x.width)
            guard PackedConv2d.isSupported(g) else { continue }
            dense[index] = layer.weight.withUnsafeBufferPointer { w in
                layer.bias.withUnsafeBufferPointer { b in
                    if denseKernel == .winograd && Winograd3x3.prefersTile4(g) {
                        return .winograd(WinogradFilters(tile4Weight: w.baseAddress!, bias: b.baseAddress!, outChannels: layer.outputChannels,
                                                         inChannels: layer.inputChannels))
                    }
                    if denseKernel != .packed && Winograd3x3.isSupported(g) {
                        return .winograd(WinogradFilters(weight: w.baseAddress!, bias: b.baseAddress!, outChannels: layer.outputChannels,
                                                         inChannels: layer.inputChannels))
                    }
                    return .packed(PackedFilters(weight: w.baseAddress!, bias: b.baseAddress!, outChannels: layer.outputChannels,
                                                 depth: layer.inputChannels * layer.kernelSize * layer.kernelSize))
                }
            }
        }
        denseFilters = dense
    }

    /// Head values per prior, [N · priorCount, outputsPerPrior], as `UIDetector` returns them.
    /// Throws unless `images` is [N, 3, inputHeight, inputWidth].
    public func callAsFunction(_ images: Tensor) throws -> Tensor {
        let c = configuration
        guard images.rank == 4, Array(images.shape.dropFirst()) == [3, c.inputHeight, c.inputWidth] else {
            throw TensorError.shapeMismatch(op: "FusedDetector", shapes: [images.shape],
                                            reason: "expected images [N, 3, \(c.inputHeight), \(c.inputWidth)]")
        }
        let batch = images.shape[0]
        if batch == 0 { return try Tensor(zeros: [0, c.outputsPerPrior]) }
        lock.lock()
        defer { lock.unlock() }
        // One level of threads: inside someone else's parallel region this runs on one worker.
        let workers = Parallel.workerCount(for: Int.max)
        let plan = try plan(batch: batch, workers: workers)
        var flat = Tensor(uninitialized: [batch * c.priorCount, c.outputsPerPrior])
        flat.withUnsafeMutableBufferPointer { out in
            Parallel.withWorkerTeam(batch == 1 ? workerTeam(workers) : nil) {
                plan.run(graph: graph, filters: denseFilters, input: images.pointer, flat: out.baseAddress!, positionsPerImage: positionsPerImage)
            }
        }
        return flat
    }

    /// Time per layer type of one forward pass on `images`, averaged over `runs` passes (after
    /// one unmeasured pass that makes the plan): where batch-1 latency goes, as `bench engine`'s
    /// profile shows it for training. Labels name a layer's place and shape (`profileLabel`);
    /// the GFLOP count is twice the multiply-adds of the convolutions of that type. `perLayer`
    /// keeps every step apart, labelled by module path and shape (`layerLabel`), to find which
    /// shapes of a layer type are slow.
    public func profile(_ images: Tensor, runs: Int, perLayer: Bool = false) throws -> [LayerTypeTiming] {
        _ = try self(images)
        lock.lock()
        defer { lock.unlock() }
        let batch = images.shape[0]
        let plan = try plan(batch: batch, workers: Parallel.workerCount(for: Int.max))
        var seconds = [Double](repeating: 0, count: graph.steps.count)
        var flat = Tensor(uninitialized: [batch * configuration.priorCount, configuration.outputsPerPrior])
        flat.withUnsafeMutableBufferPointer { out in
            seconds.withUnsafeMutableBufferPointer { slots in
                for _ in 0..<max(1, runs) {
                    plan.run(graph: graph, filters: denseFilters, input: images.pointer, flat: out.baseAddress!,
                             positionsPerImage: positionsPerImage, stepSeconds: slots.baseAddress!)
                }
            }
        }
        var timings: [LayerTypeTiming] = []
        for (index, step) in graph.steps.enumerated() {
            let label: String, flops: Double
            switch step {
            case let .convolution(layer, _, _):
                let g = plan.stepGeometries[index]!
                label = perLayer ? Self.layerLabel(name: graph.layerNames[layer], geometry: g)
                    : Self.profileLabel(name: graph.layerNames[layer], geometry: g)
                flops = 2 * Double(g.outputCount) * Double(g.inChannelsPerGroup * g.kernelHeight * g.kernelWidth)
            case .addUpsampled:
                label = perLayer ? "FPN upsample+add \(index)" : "FPN upsample+add"; flops = 0
            }
            let milliseconds = 1000 * seconds[index] / Double(max(1, runs))
            if let at = timings.firstIndex(where: { $0.label == label }) {
                timings[at].steps += 1; timings[at].milliseconds += milliseconds; timings[at].gigaflops += flops / 1e9
            } else {
                timings.append(LayerTypeTiming(label: label, steps: 1, milliseconds: milliseconds, gigaflops: flops / 1e9))
            }
        }
        return timings
    }

    /// The layer type of a convolution, by where it sits and its shape: "depthwise 3×3 s2",
    /// "pointwise 1×1", "FPN output 3×3", "head depthwise 3×3 s1", "head output 1×1", ….
    static func profileLabel(name: String, geometry g: Conv2dGeometry) -> String {
        let kernel = "\(g.kernelHeight)×\(g.kernelWidth)"
        let shape = g.groups > 1 && g.groups == g.inChannels ? "depthwise \(kernel) s\(g.strideHeight)"
            : g.kernelHeight == 1 && g.kernelWidth == 1 ? "pointwise 1×1" : "conv \(kernel)"
        if name == "backbone.stem" { return "stem \(kernel) s\(g.strideHeight)" }
        if name.hasPrefix("fpn.lateral") { return "FPN lateral \(kernel)" }
        if name.hasPrefix("fpn.output") { return "FPN output \(kernel)" }
        if name.hasPrefix("head.outputs") || name == "head.conv2" { return "head output \(kernel)" }
        if name.hasPrefix("head.") { return "head \(shape)" }
        return shape
    }

    /// One convolution by module path and shape: "backbone.stage5.0.pointwise 256→512 1×1 s1 @8×16".
    static func layerLabel(name: String, geometry g: Conv2dGeometry) -> String {
        "\(name) \(g.inChannels)→\(g.outChannels) \(g.kernelHeight)×\(g.kernelWidth) s\(g.strideHeight) @\(g.outHeight)×\(g.outWidth)"
    }

    /// Floats of activation memory planned for `batch` (made on first use).
    public func plannedActivationFloats(batch: Int) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        return try plan(batch: batch, workers: Parallel.workerCount(for: Int.max)).activationFloats
    }

    /// The team for `workers` workers, when it helps (called under `lock`).
    private func workerTeam(_ workers: Int) -> WorkerTeam? {
        guard keepsWorkersAwake && workers > 1 else { return nil }
        if team?.size != workers {
            team?.stop()
            team = WorkerTeam(size: workers)
        }
        return team
    }

    private func plan(batch: Int, workers: Int) throws -> ActivationPlan {
        if let index = plans.firstIndex(where: { $0.batch == batch && $0.workers == workers }) {
            let plan = plans.remove(at: index)
            plans.append(plan)
            return plan
        }
        let plan = try ActivationPlan(graph: graph, filters: denseFilters, batch: batch, workers: workers)
        plans.append(plan)
        if plans.count > Self.plansKept { plans.removeFirst() }
        return plan
    }
}

/// One layer type's share of a fused forward pass (`FusedDetector.profile`).
public struct LayerTypeTiming: Equatable, Sendable {
    public let label: String
    /// Graph steps of this type.
    public var steps: Int
    public var milliseconds: Double
    public var gigaflops: Double
    /// Arithmetic rate of this type (0 for the steps that do no multiply-adds).
    public var gigaflopsPerSecond: Double { milliseconds > 0 ? gigaflops / (milliseconds / 1000) : 0 }
}
