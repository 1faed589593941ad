import Data

/// One detector output: a scored box of one class on one image of the evaluated sample list.
public struct PredictedBox: Equatable, Hashable {
    /// Index into the evaluated samples (not a COCO id).
    public var imageIndex: Int
    public var classIndex: Int
    public var box: BoundingBox
    public var score: Double

    public init(imageIndex: Int, classIndex: Int, box: BoundingBox, score: Double) {
        self.imageIndex = imageIndex
        self.classIndex = classIndex
        self.box = box
        self.score = score
    }
}

/// How the precision-recall curve is turned into one number.
public enum Interpolation: String, CaseIterable, Codable {
    /// Area under the monotone precision envelope at every recall step (PASCAL VOC 2010+).
    case allPoint = "all-point"
    /// Mean of the envelope sampled at recall 0, 0.01, …, 1 (COCO; mirrors pycocotools COCOeval).
    case coco101 = "coco101"
}

public struct EvaluationOptions: Equatable {
    /// A detection matches a ground-truth box when IoU ≥ this value.
    public var iouThreshold: Double
    public var interpolation: Interpolation
    /// Keep only the N highest-scoring detections per image and class (COCOeval's maxDets); nil keeps all.
    public var maxDetections: Int?

    public init(iouThreshold: Double = 0.5, interpolation: Interpolation = .allPoint, maxDetections: Int? = nil) {
        self.iouThreshold = iouThreshold
        self.interpolation = interpolation
        self.maxDetections = maxDetections
    }
}

public enum EvaluationError: Error, CustomStringConvertible {
    case invalidOption(String)
    case badPrediction(file: String, entry: Int, reason: String)
    case badPredictionFile(file: String, reason: String)
    case badThresholds(file: String, reason: String)
    case badReport(path: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidOption(reason): return reason
        case let .badPrediction(file, entry, reason):
            return "\(file): prediction entry \(entry) (0-based): \(reason) (fix the entry, or pass --lenient to skip and count such entries)"
        case let .badPredictionFile(file, reason): return "\(file): \(reason)"
        case let .badThresholds(file, reason): return "\(file): \(reason)"
        case let .badReport(path, reason): return "\(path): \(reason)"
        }
    }
}
