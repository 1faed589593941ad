import Detection
import Foundation
import Inference

/// What a consumer of an exported model needs besides the graph — classes, per-class
/// thresholds, how to make the input — written to the ONNX model's `metadata_props`, each value
/// a plain string (numbers) or JSON (lists, tables), under the keys of `metadataKeys`.
public struct ExportedModelDescription: Equatable, Sendable {
    public var classes: [String]
    /// Per class, the confidence picked on val (`screenlab thresholds pick`), nil where none was.
    public var thresholds: [Double?]
    public var normalizationMean: [Float]
    public var normalizationStd: [Float]
    public var architecture: String
    public var architectureOptions: [String: String]
    /// The weights file's name (not its path: the model may travel to another machine).
    public var sourceWeights: String?
    /// ISO 8601 time the weights were written.
    public var weightsCreated: String?

    public init(classes: [String], thresholds: [Double?], normalizationMean: [Float], normalizationStd: [Float],
                architecture: String, architectureOptions: [String: String], sourceWeights: String? = nil, weightsCreated: String? = nil) {
        self.classes = classes
        self.thresholds = thresholds
        self.normalizationMean = normalizationMean
        self.normalizationStd = normalizationStd
        self.architecture = architecture
        self.architectureOptions = architectureOptions
        self.sourceWeights = sourceWeights
        self.weightsCreated = weightsCreated
    }

    /// Everything the `.slw` header says about classes, thresholds and input.
    public init(_ detector: TrainedDetector) {
        let header = detector.weights.header
        self.init(classes: detector.classes, thresholds: detector.storedThresholds,
                  normalizationMean: detector.normalization.mean, normalizationStd: detector.normalization.std,
                  architecture: header.architecture.name, architectureOptions: header.architecture.options,
                  sourceWeights: URL(fileURLWithPath: detector.file).lastPathComponent, weightsCreated: header.provenance.created)
    }

    /// The keys `metadataProps` writes, with what each holds (docs/inference.md's export section lists them too).
    public static let metadataKeys: [(key: String, holds: String)] = [
        ("classes", "JSON list of class names; index i is column i of `scores` and class i of `head`"),
        ("thresholds", "JSON list, per class the confidence to keep a detection at (null: none was picked)"),
        ("input_height", "model input height in pixels"),
        ("input_width", "model input width in pixels"),
        ("normalization_mean", "JSON list, per RGB channel, subtracted from pixel/255"),
        ("normalization_std", "JSON list, per RGB channel, divides (pixel/255 − mean)"),
        ("preprocessing", "how an image becomes the `images` input, in words"),
        ("head", "anchor-free or anchored"),
        ("strides", "JSON list of the pyramid levels' strides, in the order of the prior rows"),
        ("distribution_bins", "bins per box side (anchor-free head)"),
        ("anchors_per_cell", "anchors per feature cell (anchored head)"),
        ("outputs", "the graph outputs' names and layouts, in words"),
        ("postprocess", "what of the decoding is in the graph and what is left to the caller"),
        ("architecture", "the weights' architecture name"),
        ("architecture_options", "JSON object of the weights' architecture options"),
        ("source_weights", "the .slw file the model was exported from"),
        ("weights_created", "when that file was written (ISO 8601)"),
    ]
}

extension ExportedModelDescription {
    /// The `metadata_props` entries for a model of `configuration` exported with or without decode.
    func metadataProps(configuration c: UIDetectorConfiguration, withPostprocess: Bool) throws -> [(String, String)] {
        var props: [(String, String)] = [
            ("classes", try json(classes)),
            ("thresholds", try json(thresholds)),
            ("input_height", "\(c.inputHeight)"),
            ("input_width", "\(c.inputWidth)"),
            ("normalization_mean", try json(normalizationMean)),
            ("normalization_std", try json(normalizationStd)),
            ("preprocessing", """
             RGB image scaled to fit \(c.inputWidth)×\(c.inputHeight) (width × height) keeping its aspect ratio (area \
             averaging when shrinking, bilinear when growing), centred on RGB(114, 114, 114) padding (letterbox); per channel \
             (pixel/255 − mean)/std; NCHW float32
             """),
            ("head", c.head.rawValue),
            ("strides", try json(c.strides)),
        ]
        switch c.head {
        case .anchorFree: props.append(("distribution_bins", "\(c.distributionBins)"))
        case .anchored: props.append(("anchors_per_cell", "\(c.anchorsPerCell)"))
        }
        props += [
            ("outputs", ONNXOutputs.description(c, withPostprocess: withPostprocess)),
            ("postprocess", ONNXOutputs.postprocessNote(withPostprocess: withPostprocess)),
            ("architecture", architecture),
            ("architecture_options", try json(architectureOptions)),
        ]
        if let sourceWeights { props.append(("source_weights", sourceWeights)) }
        if let weightsCreated { props.append(("weights_created", weightsCreated)) }
        return props
    }

    private func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
