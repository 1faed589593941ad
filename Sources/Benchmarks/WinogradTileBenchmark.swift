import Dispatch
import Kernels
import Support

/// `screenlab bench predict --winograd-tiles`: the detectors' dense 3×3 stride-1 layers (the FPN
/// outputs, the anchored head's convolutions) by F(2×2, 3×3) and by F(4×4, 3×3) (`Winograd3x3`
/// with either `WinogradFilters`), alternating in every round, with the per-round ratio's median
/// and range: what `FusedDetector`'s choice of tile is based on, layer by layer.
public struct WinogradTileBenchmark {
    public struct Row {
        public let geometry: Conv2dGeometry
        /// Median milliseconds per forward call over the rounds.
        public let tile2: Double, tile4: Double
        /// Tile-2 time ÷ tile-4 time per round, sorted.
        public let ratios: [Double]
        public var medianRatio: Double { ratios[ratios.count / 2] }
        /// Whether `FusedDetector` runs this layer by F(4×4).
        public var usesTile4: Bool { Winograd3x3.prefersTile4(geometry) }
    }

    /// The detectors' 3×3 stride-1 shapes at the 512×256 input: 64 → 64 (FPN outputs, the anchored
    /// head's first convolution) and 64 → 51 (its class and box outputs) at the three levels.
    public static func shapes(batch: Int) throws -> [Conv2dGeometry] {
        try [(64, 64, 32), (51, 64, 32), (64, 32, 16), (51, 32, 16), (64, 16, 8)].map { out, height, width in
            try Conv2dGeometry(batch: batch, inChannels: 64, inHeight: height, inWidth: width, outChannels: out, kernel: 3, padding: 1)
        }
    }

    public let rounds: Int
    public let workers: Int

    public init(rounds: Int, workers: Int) {
        self.rounds = max(1, rounds)
        self.workers = workers
    }

    /// One row per shape: each round times `runs` calls of each tile size back to back, in turn.
    public func measure(_ g: Conv2dGeometry, runs: Int) -> Row {
        var random = SeededRandom(seed: 3)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: g.inputCount)
        let weight = UnsafeMutablePointer<Float>.allocate(capacity: g.weightCount)
        let bias = UnsafeMutablePointer<Float>.allocate(capacity: g.outChannels)
        let output = UnsafeMutablePointer<Float>.allocate(capacity: g.outputCount)
        for i in 0..<g.inputCount { input[i] = Float(random.normal()) }
        for i in 0..<g.weightCount { weight[i] = Float(random.normal()) * 0.05 }
        for i in 0..<g.outChannels { bias[i] = Float(random.normal()) * 0.1 }
        let filters = [WinogradFilters(weight: weight, bias: bias, outChannels: g.outChannels, inChannels: g.inChannels),
                       WinogradFilters(tile4Weight: weight, bias: bias, outChannels: g.outChannels, inChannels: g.inChannels)]
        let scratch = filters.map { UnsafeMutablePointer<Float>.allocate(capacity: Winograd3x3.scratchCount(g, workers: workers, tile: $0.outputTile)) }
        defer {
            for pointer in [input, weight, bias, output] + scratch { pointer.deallocate() }
        }
        func milliseconds(_ index: Int, _ calls: Int) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls {
                Winograd3x3.forward(g, input: input, filters: filters[index], bounds: .identity, output: output, workers: workers,
                                    scratch: scratch[index])
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(calls)
        }
        _ = milliseconds(0, 2)
        _ = milliseconds(1, 2)
        var times: [[Double]] = [[], []], ratios: [Double] = []
        for _ in 0..<rounds {
            let two = milliseconds(0, runs), four = milliseconds(1, runs)
            times[0].append(two)
            times[1].append(four)
            ratios.append(two / four)
        }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        return Row(geometry: g, tile2: medians[0], tile4: medians[1], ratios: ratios.sorted())
    }

    /// The Markdown table `bench predict --winograd-tiles` prints.
    public static func table(_ rows: [Row]) -> String {
        var lines = ["| batch, layer | F(2×2) ms | F(4×4) ms | F(2×2) / F(4×4), median (range) | the fused model runs |", "|---|---|---|---|---|"]
        for row in rows {
            let g = row.geometry
            lines.append("| \(g.batch), \(g.inChannels)→\(g.outChannels) at \(g.outHeight)×\(g.outWidth) | "
                         + String(format: "%.3f | %.3f | %.2f× (%.2f–%.2f)", row.tile2, row.tile4, row.medianRatio, row.ratios.first!, row.ratios.last!)
                         + " | F(\(row.usesTile4 ? "4×4" : "2×2")) |")
        }
        return lines.joined(separator: "\n")
    }
}
