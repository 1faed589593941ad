import Detection
import Foundation
import Inference
import Support
import SwiftProtobuf
import Weights

/// A trained `UIDetector` as an ONNX model: the fused (batch-norm-folded) network, optionally
/// the head's decode, and the classes, thresholds, input size and normalization as metadata.
///
/// Input `images` [batch, 3, H, W]: letterboxed, normalized RGB, as `FusedDetector` takes it.
/// Outputs: `head` [batch, priors, outputsPerPrior] (the values `FusedDetector` returns before
/// `HeadDecoder`), or with decode `scores` [batch, priors, classes] and `boxes` [batch, priors, 4]
/// in input pixels. Thresholds and NMS are never in the graph (see `ONNXOutputs`).
public enum ONNXExporter {
    /// Opset 13 (ONNX 1.8, 2020): every op used here has its current form there (Clip, Resize
    /// and Slice take their bounds as inputs), and runtimes from 2021 on load it.
    public static let opsetVersion: Int64 = 13
    /// IR version 7 goes with opset 13.
    public static let irVersion: Int64 = 7

    public static func model(_ detector: TrainedDetector, withPostprocess: Bool) throws -> Onnx_ModelProto {
        try model(detector.model, description: ExportedModelDescription(detector), withPostprocess: withPostprocess)
    }

    public static func model(_ detector: UIDetector, description: ExportedModelDescription, withPostprocess: Bool) throws -> Onnx_ModelProto {
        let c = detector.configuration
        guard description.classes.count == c.classCount, description.thresholds.count == c.classCount else {
            throw ExportError(message: "\(description.classes.count) class names and \(description.thresholds.count) thresholds for a model with \(c.classCount) classes")
        }
        let fused: FusedDetector
        do { fused = try FusedDetector(detector) } catch {
            throw ExportError(message: "cannot export this model: \(error)")
        }
        var builder = ONNXGraphBuilder(name: "screenlab_ui_detector")
        let batch = ONNXDimension.symbolic(ONNXOutputs.batch)
        builder.addInput(ONNXOutputs.input, shape: [batch, .fixed(3), .fixed(c.inputHeight), .fixed(c.inputWidth)],
                         doc: "letterboxed RGB, (pixel/255 − mean)/std per channel (metadata: preprocessing)")
        let head = try ONNXNetwork.add(fused.graph, outputsPerPrior: c.outputsPerPrior, input: ONNXOutputs.input,
                                       headName: ONNXOutputs.head, to: &builder)
        if withPostprocess {
            let decoded = try ONNXDecode.add(head: head, configuration: c, scoresName: ONNXOutputs.scores, boxesName: ONNXOutputs.boxes,
                                             to: &builder)
            builder.addOutput(decoded.scores, shape: [batch, .fixed(c.priorCount), .fixed(c.classCount)],
                              doc: "sigmoid score per prior and class")
            builder.addOutput(decoded.boxes, shape: [batch, .fixed(c.priorCount), .fixed(4)],
                              doc: "x1, y1, x2, y2 in model-input (letterboxed) pixels")
        } else {
            builder.addOutput(head, shape: [batch, .fixed(c.priorCount), .fixed(c.outputsPerPrior)],
                              doc: "per prior: class logits, then the box encoding (metadata: outputs)")
        }

        var model = Onnx_ModelProto()
        model.irVersion = irVersion
        var opset = Onnx_OperatorSetIdProto()
        opset.domain = ""
        opset.version = opsetVersion
        model.opsetImport = [opset]
        model.producerName = "screenlab"
        model.domain = "screenlab.ui-detector"
        model.docString = "ScreenLab UI-element detector. " + ONNXOutputs.description(c, withPostprocess: withPostprocess)
        model.graph = builder.graph
        model.metadataProps = try description.metadataProps(configuration: c, withPostprocess: withPostprocess).map { key, value in
            var entry = Onnx_StringStringEntryProto()
            entry.key = key
            entry.value = value
            return entry
        }
        return model
    }

    public struct Summary: Sendable {
        public let nodes: Int
        /// Values in the initializers: weights and biases, and with decode the prior grids.
        public let constants: Int
        public let bytes: Int
        public let outputs: [String]
    }

    /// Loads `weights` strictly (`TrainedDetector`), refuses non-finite tensors, and writes the
    /// model to `out` atomically — never over the weights file.
    public static func write(weights: URL, to out: URL, withPostprocess: Bool) throws -> Summary {
        let detector = try TrainedDetector.load(contentsOf: weights)
        try detector.weights.checkFinite(file: weights.path)
        let model = try model(detector, withPostprocess: withPostprocess)
        let data = try model.serializedData()
        try AtomicFile.write(data, to: out, notReplacing: [weights])
        let constants = model.graph.initializer.reduce(0) { $0 + Int($1.dims.reduce(1, *)) }
        return Summary(nodes: model.graph.node.count, constants: constants, bytes: data.count, outputs: model.graph.output.map(\.name))
    }
}
