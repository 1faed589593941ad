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
    /// The per-image-and-class cap of COCO's summary (mAP@0.5:0.95, AR@cap). COCOeval's default
    /// is 100; ScreenLab's post-processing keeps up to 300 boxes per screen, so 300 cuts nothing a
    /// ScreenLab model outputs. A smaller `maxDetections` lowers it (those detections are gone).
    public var cocoMaxDetections: Int
    /// AP and recall per size bucket of each scheme, at `effectiveCOCOMaxDetections` (none by default:
    /// each scheme is one more matching pass per bucket, which training's validation does not need).
    public var sizeSchemes: [SizeScheme] = []

    public static let defaultCOCOMaxDetections = 300

    public init(iouThreshold: Double = 0.5, interpolation: Interpolation = .allPoint, maxDetections: Int? = nil,
                cocoMaxDetections: Int = EvaluationOptions.defaultCOCOMaxDetections, sizeSchemes: [SizeScheme] = []) {
        self.sizeSchemes = sizeSchemes
        self.iouThreshold = iouThreshold
        self.interpolation = interpolation
        self.maxDetections = maxDetections
        self.cocoMaxDetections = cocoMaxDetections
    }

    /// The cap COCO's summary actually uses: detections beyond `maxDetections` were never kept.
    public var effectiveCOCOMaxDetections: Int { min(cocoMaxDetections, maxDetections ?? .max) }
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
