import Kernels
import Support

/// Memory and kernel geometries of one `InferenceGraph` at one batch size and worker count,
/// made once and reused by every call with that batch: activations share buffers by liveness
/// (a buffer returns to the pool after the last step that reads its value), and all kernels
/// share one scratch area sized for the largest. A run allocates nothing.
final class ActivationPlan {
    let batch: Int
    let workers: Int
    private let geometries: [Conv2dGeometry?]
    private let bufferOfValue: [Int]
    private let buffers: [UnsafeMutablePointer<Float>]
    private let scratch: UnsafeMutablePointer<Float>?
    /// Each convolution step's geometry at this batch (nil for the other steps).
    var stepGeometries: [Conv2dGeometry?] { geometries }
    /// Floats of activation memory (for reports and tests).
    let activationFloats: Int

    /// `filters`: per layer, the weights of its dense kernel (nil: `FusedConv2d`).
    init(graph: InferenceGraph, filters: [DenseFilters?], batch: Int, workers: Int) throws {
        self.batch = batch
        self.workers = workers
        var geometries: [Conv2dGeometry?] = []
        var scratchCount = 0
        for step in graph.steps {
            guard case let .convolution(layer, input, _) = step else { geometries.append(nil); continue }
            let x = graph.values[input]
            let g = try graph.layers[layer].geometry(batch: batch, height: x.height, width: x.width)
            let need = switch filters[layer] {
            case .packed: PackedConv2d.scratchCount(g, workers: workers)
            case let .winograd(transformed): Winograd3x3.scratchCount(g, workers: workers, tile: transformed.outputTile)
            case nil: FusedConv2d.scratchCount(g, workers: workers)
            }
            scratchCount = max(scratchCount, need)
            geometries.append(g)
        }
        self.geometries = geometries

        // Greedy assignment in step order: the smallest free buffer that fits, else the largest
        // free one grown, else a new one. A step's output is placed before its inputs are
        // released, so no convolution reads and writes the same buffer.
        let lastUse = graph.lastUses()
        var capacities: [Int] = [], free: [Int] = []
        var bufferOfValue = [Int](repeating: -1, count: graph.values.count)
        for (index, step) in graph.steps.enumerated() {
            var reads: [Int] = []
            switch step {
            case let .convolution(_, input, output):
                if case let .value(v) = output {
                    let need = batch * graph.values[v].planeCount
                    let fitting = free.filter { capacities[$0] >= need }.min { capacities[$0] < capacities[$1] }
                    let chosen = fitting ?? free.max { capacities[$0] < capacities[$1] }
                    if let chosen {
                        free.removeAll { $0 == chosen }
                        capacities[chosen] = max(capacities[chosen], need)
                        bufferOfValue[v] = chosen
                    } else {
                        capacities.append(need)
                        bufferOfValue[v] = capacities.count - 1
                    }
                }
                reads = [input]
            case let .addUpsampled(coarse, fine): reads = [coarse, fine]
            }
            for v in reads where v != 0 && lastUse[v] == index && bufferOfValue[v] >= 0 { free.append(bufferOfValue[v]) }
        }
        self.bufferOfValue = bufferOfValue
        buffers = capacities.map { UnsafeMutablePointer<Float>.allocate(capacity: max(1, $0)) }
        activationFloats = capacities.reduce(0, +)
        scratch = scratchCount > 0 ? .allocate(capacity: scratchCount) : nil
    }

    deinit {
        buffers.forEach { $0.deallocate() }
        scratch?.deallocate()
    }

    /// Runs the graph on `input` ([batch, C, H, W]) into the flat head matrix `flat`
    /// ([batch · positions, flatRowChannels]). With `stepSeconds` (one slot per graph step), also
    /// adds each step's wall time to its slot: the per-layer profile of `FusedDetector.profile`.
    func run(graph: InferenceGraph, filters: [DenseFilters?], input: UnsafePointer<Float>, flat: UnsafeMutablePointer<Float>, positionsPerImage: Int,
             stepSeconds: UnsafeMutablePointer<Double>? = nil) {
        func pointer(_ value: Int) -> UnsafeMutablePointer<Float> {
            value == 0 ? UnsafeMutablePointer(mutating: input) : buffers[bufferOfValue[value]]
        }
        let rowChannels = graph.flatRowChannels ?? 0
        for (index, step) in graph.steps.enumerated() {
            let clock = stepSeconds.map { _ in Stopwatch() }
            defer { if let stepSeconds, let clock { stepSeconds[index] += clock.seconds } }
            switch step {
            case let .convolution(layerIndex, source, output):
                let layer = graph.layers[layerIndex], g = geometries[index]!
                var target = flat, layout = FusedConv2d.OutputLayout.channelsFirst
                switch output {
                case let .value(v): target = pointer(v)
                case let .flat(offset):
                    target = flat + offset * rowChannels
                    layout = .positionsFirst(rowStride: rowChannels, imageStride: positionsPerImage * rowChannels)
                }
                switch filters[layerIndex] {
                case let .packed(packed):
                    PackedConv2d.forward(g, input: pointer(source), filters: packed, bounds: layer.bounds, output: target, layout: layout,
                                         workers: workers, scratch: scratch!)
                    continue
                case let .winograd(transformed):
                    Winograd3x3.forward(g, input: pointer(source), filters: transformed, bounds: layer.bounds, output: target, layout: layout,
                                        workers: workers, scratch: scratch!)
                    continue
                case nil: break
                }
                layer.weight.withUnsafeBufferPointer { w in
                    layer.bias.withUnsafeBufferPointer { b in
                        FusedConv2d.forward(g, input: pointer(source), weight: w.baseAddress!, bias: b.baseAddress!, bounds: layer.bounds,
                                            output: target, layout: layout, workers: workers, scratch: scratch)
                    }
                }
            case let .addUpsampled(coarse, fine):
                let c = graph.values[coarse]
                UpsampleAdd.addNearest2x(coarse: pointer(coarse), planes: batch * c.channels, height: c.height, width: c.width,
                                         into: pointer(fine), workers: workers)
            }
        }
    }
}

/// One dense layer's weights, prepared once for the kernel that runs it.
enum DenseFilters {
    case packed(PackedFilters)
    case winograd(WinogradFilters)
}
