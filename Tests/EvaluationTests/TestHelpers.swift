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

func evaluate(_ samples: [Sample], _ predictions: [PredictedBox], classes: [String] = ["A", "B"],
              interpolation: Interpolation = .allPoint, maxDetections: Int? = nil) throws -> EvaluationResult {
    try DetectionEvaluator(classNames: classes, samples: samples, predictions: predictions,
                           options: EvaluationOptions(interpolation: interpolation, maxDetections: maxDetections)).evaluate()
}
