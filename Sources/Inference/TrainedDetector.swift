import Detection
import Evaluation
import Foundation
import Imaging
import Weights

/// A detector as `screenlab train` ships it: a `.slw` file whose header carries the architecture
/// options, input size, normalization, classes and per-class thresholds. The model is rebuilt
/// from the header and every tensor is checked by name and shape before anything is used.
public struct TrainedDetector {
    public let file: String
    public let weights: WeightsFile
    public let model: UIDetector
    public let normalization: PixelNormalization
    public var classes: [String] { weights.header.classes }

    public static func load(contentsOf url: URL) throws -> TrainedDetector {
        let weights = try WeightsFile.read(contentsOf: url)
        let header = weights.header
        guard header.architecture.name == UIDetectorConfiguration.architectureName else {
            throw InferenceError(file: url.path, reason: "architecture '\(header.architecture.name)' is not one ScreenLab can run (it runs \(UIDetectorConfiguration.architectureName), what `screenlab train` writes)")
        }
        let configuration: UIDetectorConfiguration
        do {
            configuration = try UIDetectorConfiguration(options: header.architecture.options, classCount: header.classes.count,
                                                        inputHeight: header.input.height, inputWidth: header.input.width)
        } catch {
            throw InferenceError(file: url.path, reason: "header: \(error)")
        }
        let model = try UIDetector(configuration: configuration)
        try weights.validate(expectedShapes: Dictionary(uniqueKeysWithValues: model.stateShapes().map { ($0.name, $0.shape) }), file: url.path)
        try model.load(state: weights.state)
        model.eval()
        guard PixelNormalization.problem(mean: header.normalization.mean, std: header.normalization.std) == nil else {
            throw InferenceError(file: url.path, reason: "header normalization \(header.normalization) is not three means and three positive std values")
        }
        return TrainedDetector(file: url.path, weights: weights, model: model,
                               normalization: PixelNormalization(mean: header.normalization.mean, std: header.normalization.std))
    }

    /// The per-class confidences stored with the weights (nil for a class without one).
    public var storedThresholds: [Double?] { classes.map { weights.header.threshold(forClass: $0)?.confidence } }

    /// A predictor; `useStoredThresholds` applies the weights' per-class thresholds (what a shipped
    /// model is for), otherwise every detection above `scoreThreshold` is kept (what AP needs).
    public func predictor(scoreThreshold: Double, useStoredThresholds: Bool, batchSize: Int = 8,
                          postprocess: PostprocessOptions = PostprocessOptions()) throws -> DetectorPredictor {
        var options = postprocess
        options.scoreThreshold = scoreThreshold
        options.classConfidenceThresholds = useStoredThresholds ? storedThresholds : []
        if options.crossClassGroups.isEmpty { options.crossClassGroups = SimilarClassGroups.indexGroups(classNames: classes) }
        return try DetectorPredictor(model: model, postprocessor: DetectionPostprocessor(classCount: classes.count, options: options),
                                     normalization: normalization, batchSize: batchSize)
    }
}

extension TrainedDetector {
    /// The per-class confidences a deployed model keeps detections at: `confidence` for every
    /// class, else a thresholds file's (a class it lacks keeps nothing), else the ones stored
    /// with the weights; with none of these, 0.5 and a note saying so. A class without a
    /// threshold keeps nothing (1.01 is above any score).
    public func deploymentThresholds(confidence: Double?, thresholds: ThresholdFile?) -> (perClass: [Double], note: String?) {
        var perClass: [Double?] = storedThresholds
        if let confidence { perClass = classes.map { _ in confidence } }
        if let thresholds { perClass = classes.map { thresholds.entry(named: $0)?.confidence ?? 1.01 } }
        guard perClass.contains(where: { $0 != nil }) else {
            return (classes.map { _ in 0.5 }, "\(file) stores no thresholds; keeping detections with score ≥ 0.5 (give --confidence or --thresholds)")
        }
        return (perClass.map { $0 ?? 1.01 }, nil)
    }

    /// A predictor keeping what `deploymentThresholds` says, as `predict` runs a shipped model.
    public func deploymentPredictor(confidence: Double?, thresholds: ThresholdFile?, batchSize: Int,
                                    postprocess: PostprocessOptions = PostprocessOptions()) throws -> (predictor: DetectorPredictor, note: String?) {
        let (perClass, note) = deploymentThresholds(confidence: confidence, thresholds: thresholds)
        var options = postprocess
        options.classConfidenceThresholds = perClass
        if options.crossClassGroups.isEmpty { options.crossClassGroups = SimilarClassGroups.indexGroups(classNames: classes) }
        return (try DetectorPredictor(model: model, postprocessor: DetectionPostprocessor(classCount: classes.count, options: options),
                                      normalization: normalization, batchSize: batchSize), note)
    }
}

public struct InferenceError: Error, CustomStringConvertible {
    public let file: String
    public let reason: String
    public var description: String { "\(file): \(reason)" }
}
