import Detection
import Foundation
import Inference
import Kernels
import Support
import Training

/// `screenlab bench variants`: the fused batch-1 latency, parameter count and weights size of
/// several detector configurations (`Configs/models/*.yaml`, optionally at other inputs), timed
/// in interleaved rounds in one process so machine drift hits every variant alike — the
/// on-device side of the model-family table (issue 26: ≤ 15 ms batch 1 on 2 cores, ≤ 8 MB).
public struct VariantBenchmark {
    public struct Variant {
        public let label: String
        public let configuration: UIDetectorConfiguration
    }

    public struct Row {
        public let variant: Variant
        public let parameters: Int
        /// Median milliseconds per batch-1 forward pass of the fused model.
        public let batch1: Double
        /// Weights file size at 4 bytes per parameter (the header adds a few kB).
        public var float32Megabytes: Double { Double(parameters * 4) / 1_000_000 }
    }

    public let variants: [Variant]

    /// `classCount` as the experiment's data would give (vins-ui: 14).
    public init(modelFiles: [String], inputs: [(width: Int, height: Int)?], classCount: Int) throws {
        var variants: [Variant] = []
        for file in modelFiles {
            let model = try DetectorModelFile.load(contentsOf: URL(fileURLWithPath: file))
            for input in inputs {
                let configuration = try model.configuration(classes: (0..<classCount).map { "class \($0)" },
                                                            inputWidth: input?.width, inputHeight: input?.height)
                try configuration.validate()
                let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                variants.append(Variant(label: "\(name) \(configuration.inputWidth)×\(configuration.inputHeight)", configuration: configuration))
            }
        }
        self.variants = variants
    }

    public func measure(rounds: Int, runs: Int) throws -> [Row] {
        var contenders: [InterleavedTiming.Contender] = []
        var parameters: [Int] = []
        var random = SeededRandom(seed: 1)
        for variant in variants {
            let benchmark = try PredictBenchmark(configuration: variant.configuration)
            let model = try benchmark.evalModel()
            parameters.append(model.parameterCount())
            let fused = try FusedDetector(model)
            let image = benchmark.randomImages(1, &random)
            contenders.append(InterleavedTiming.Contender { _ = try fused(image) })
        }
        let medians = try InterleavedTiming.medianMilliseconds(contenders, repetitions: runs, rounds: rounds)
        return zip(variants, zip(parameters, medians)).map { Row(variant: $0, parameters: $1.0, batch1: $1.1) }
    }

    public static func table(_ rows: [Row]) -> String {
        guard let first = rows.first else { return "" }
        var out = "| variant | width | FPN | stride 4 | head convs | params | weights (f32) | batch-1 ms | vs first |\n"
        out += "|---|---:|---:|---|---:|---:|---:|---:|---:|\n"
        for row in rows {
            let c = row.variant.configuration
            out += "| \(row.variant.label) | \(c.widthMultiplier) | \(c.fpnChannels) | \(c.includeStride4 ? "yes" : "no") | \(c.headConvolutions) | "
            out += String(format: "%.2f M | %.1f MB | %.2f | %.2f× |\n", Double(row.parameters) / 1e6, row.float32Megabytes, row.batch1, row.batch1 / first.batch1)
        }
        return out
    }
}
