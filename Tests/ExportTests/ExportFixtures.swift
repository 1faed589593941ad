import Detection
import Export
import Foundation
import NN
import Support
import Tensor
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
        var random = SeededRandom(seed: seed + 100)
        var state: [String: Tensor] = [:]
        for (name, tensor) in model.stateTensors() {
            var t = tensor
            let range: (Double, Double)?
            if name.hasSuffix("running_mean") { range = (-0.3, 0.3) }
            else if name.hasSuffix("running_var") { range = (0.3, 2) }
            else if name.hasSuffix("bn.weight") { range = (0.5, 1.5) }
            else if name.hasSuffix("bn.bias") { range = (-0.3, 0.3) }
            // Output weights start at std 0.01, which would make every head value nearly its bias.
            else if name.hasPrefix("head.outputs") || name.hasPrefix("head.conv2"), name.hasSuffix("weight") { range = (-0.2, 0.2) }
            // …and the class prior's bias (−4.6) every score near 0.01: spread them over (0.1, 0.9).
            else if name.hasPrefix("head.outputs") || name.hasPrefix("head.conv2"), name.hasSuffix("bias") { range = (-2, 2) }
            else { range = nil }
            if let range {
                t.withUnsafeMutableBufferPointer { for i in 0..<$0.count { $0[i] = Float(random.uniform(range.0, range.1)) } }
            }
            state[name] = t
        }
        try model.load(state: state)
        model.eval()
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
