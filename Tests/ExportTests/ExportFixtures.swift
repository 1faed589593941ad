import Detection
import Export
import Foundation
import NN
import Support
import Tensor
import TestSupport
import Weights

/// Small detectors with random weights and random batch-norm statistics (with PyTorch's initial
/// statistics folding is nearly the identity and a comparison proves little), and their `.slw`.
enum ExportFixtures {
    static let classes = ["Icon", "Text", "Switch"]
    static let inputHeight = 96, inputWidth = 64
    static let mean: [Float] = [0.485, 0.456, 0.406], std: [Float] = [0.229, 0.224, 0.225]

    static func options(head: UIDetectorConfiguration.HeadKind, stride4: Bool) -> [String: String] {
        ["head": head.rawValue, "width_multiplier": "0.25", "fpn_channels": "16", "head_convolutions": "1",
         "distribution_bins": "8", "stride4": "\(stride4)"]
    }

    static func model(head: UIDetectorConfiguration.HeadKind, stride4: Bool, seed: UInt64) throws -> UIDetector {
        let configuration = try UIDetectorConfiguration(options: options(head: head, stride4: stride4), classCount: classes.count,
                                                        inputHeight: inputHeight, inputWidth: inputWidth)
        let model = try UIDetector(configuration: configuration, seed: seed)
        try RandomizedStatistics.apply(to: model, seed: seed + 100, headPrefixes: ["head.outputs", "head.conv2"], spreadHeadBiases: true)
        return model
    }

    /// Thresholds for the first two classes; the third has none (exported as null).
    static let thresholds: [Double?] = [0.35, 0.5, nil]

    static func header(head: UIDetectorConfiguration.HeadKind, stride4: Bool, architecture: String = "ui-detector") -> WeightsHeader {
        let picked = zip(classes, thresholds).compactMap { name, confidence in
            confidence.map { ClassThreshold(className: name, confidence: $0, precision: 0.9, recall: 0.8, f1: 0.85, split: "val") }
        }
        return WeightsHeader(architecture: ModelArchitecture(name: architecture, options: options(head: head, stride4: stride4)),
                             input: InputSpec(width: inputWidth, height: inputHeight),
                             normalization: InputNormalization(mean: mean, std: std), classes: classes, thresholds: picked,
                             provenance: Provenance(created: "2026-11-24T00:00:00Z"))
    }

    static func weightsFile(head: UIDetectorConfiguration.HeadKind, stride4: Bool, in folder: URL, seed: UInt64 = 3) throws -> URL {
        let url = folder.appendingPathComponent("detector-\(head.rawValue).slw")
        try WeightsFile(header: header(head: head, stride4: stride4),
                        tensors: model(head: head, stride4: stride4, seed: seed).stateTensors()).write(to: url)
        return url
    }

    static func description() -> ExportedModelDescription {
        ExportedModelDescription(classes: classes, thresholds: thresholds, normalizationMean: mean, normalizationStd: std,
                                 architecture: "ui-detector", architectureOptions: [:])
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func images(batch: Int, seed: UInt64) -> Tensor {
        var random = SeededRandom(seed: seed)
        var t = Tensor(uninitialized: [batch, 3, inputHeight, inputWidth])
        t.withUnsafeMutableBufferPointer { for i in 0..<$0.count { $0[i] = Float(random.normal()) } }
        return t
    }
}
