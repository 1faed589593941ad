import Foundation
import Data
@testable import Evaluation

func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> BoundingBox { BoundingBox(x: x, y: y, width: w, height: h) }

func sample(_ id: String, _ annotations: [(Int, BoundingBox)]) -> Sample {
    Sample(id: id, imagePath: "\(id).png", width: 1000, height: 1000,
           annotations: annotations.map { Annotation(classIndex: $0.0, box: $0.1) })
}

func prediction(_ image: Int, _ classIndex: Int, _ b: BoundingBox, _ score: Double) -> PredictedBox {
    PredictedBox(imageIndex: image, classIndex: classIndex, box: b, score: score)
}

/// The report tests' two screens: classes Text/Icon/Slider (Slider has no ground truth).
func twoScreens() -> Dataset {
    let samples = [
        sample("a", [(0, box(0, 0, 10, 10)), (0, box(20, 0, 10, 10)), (1, box(50, 50, 20, 20))]),
        sample("b", [(0, box(0, 0, 10, 10)), (1, box(100, 100, 20, 20))]),
    ]
    return Dataset(root: URL(fileURLWithPath: "/data"), classes: ["Text", "Icon", "Slider"], samples: samples, splits: ["val": [0, 1]])
}

/// Detections on `twoScreens()`: every one has IoU 1 or 0 with a box, so AP is the same at every IoU threshold.
func twoScreensPredictions() -> [PredictedBox] {
    [
        prediction(0, 0, box(0, 0, 10, 10), 0.9), prediction(0, 0, box(20, 0, 10, 10), 0.4), prediction(0, 0, box(300, 0, 10, 10), 0.6),
        prediction(1, 0, box(0, 0, 10, 10), 0.8), prediction(0, 1, box(50, 50, 20, 20), 0.7), prediction(1, 1, box(0, 0, 10, 10), 0.3),
        prediction(1, 2, box(400, 400, 10, 10), 0.5),
    ]
}

func evaluate(_ samples: [Sample], _ predictions: [PredictedBox], classes: [String] = ["A", "B"],
              interpolation: Interpolation = .allPoint, maxDetections: Int? = nil) throws -> EvaluationResult {
    try DetectionEvaluator(classNames: classes, samples: samples, predictions: predictions,
                           options: EvaluationOptions(interpolation: interpolation, maxDetections: maxDetections)).evaluate()
}
