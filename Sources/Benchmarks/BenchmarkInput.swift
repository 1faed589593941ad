import Data
import Evaluation
import Foundation
import Support

/// A deterministic large evaluation input (`screenlab bench evaluate`): screens with ground
/// truth and detections that are jittered copies, duplicates, class confusions and clutter.
public struct BenchmarkInput {
    public var classNames: [String]
    public var samples: [Sample]
    public var predictions: [PredictedBox]

    public static func generate(images: Int = 5000, groundTruthPerImage: Int = 20, detectionsPerImage: Int = 100,
                                classes: Int = 13, seed: UInt64 = 1) -> BenchmarkInput {
        let names = classes == Taxonomy.screenRecognition.classes.count ? Taxonomy.screenRecognition.classes : (0..<classes).map { "class\($0)" }
        var samples: [Sample] = []
        var predictions: [PredictedBox] = []
        samples.reserveCapacity(images)
        predictions.reserveCapacity(images * detectionsPerImage)
        for image in 0..<images {
            var random = SeededRandom.stream(seed: seed, index: UInt64(image))
            var annotations: [Annotation] = []
            for _ in 0..<groundTruthPerImage {
                let w = random.uniform(12, 300), h = random.uniform(12, 160)
                let box = BoundingBox(x: random.uniform(0, 390 - w), y: random.uniform(0, 844 - h), width: w, height: h)
                annotations.append(Annotation(classIndex: random.int(in: 0..<classes), box: box))
            }
            for k in 0..<detectionsPerImage {
                let score = random.uniform()
                if k < annotations.count * 4 && random.chance(0.7) {
                    // Near a real box: most overlap well, some are confused or loose.
                    let truth = annotations[random.int(in: 0..<annotations.count)]
                    let jitter = 0.2 * min(truth.box.width, truth.box.height)
                    let box = BoundingBox(x: truth.box.x + random.uniform(-jitter, jitter), y: truth.box.y + random.uniform(-jitter, jitter),
                                          width: truth.box.width * random.uniform(0.8, 1.2), height: truth.box.height * random.uniform(0.8, 1.2))
                    let classIndex = random.chance(0.85) ? truth.classIndex : random.int(in: 0..<classes)
                    predictions.append(PredictedBox(imageIndex: image, classIndex: classIndex, box: box, score: score))
                } else {
                    let w = random.uniform(10, 200), h = random.uniform(10, 120)
                    let box = BoundingBox(x: random.uniform(0, 390 - w), y: random.uniform(0, 844 - h), width: w, height: h)
                    predictions.append(PredictedBox(imageIndex: image, classIndex: random.int(in: 0..<classes), box: box, score: score * 0.6))
                }
            }
            samples.append(Sample(id: "screen\(image)", imagePath: "screen\(image).png", width: 390, height: 844,
                                  annotations: annotations, cocoImageID: image + 1))
        }
        return BenchmarkInput(classNames: names, samples: samples, predictions: predictions)
    }

    /// The ground truth as a dataset with COCO image ids 1…N and category ids 1…C, to time
    /// pycocotools on the same input (`COCOWriter`) and to write the predictions with those ids.
    public func dataset(root: URL) -> Dataset {
        Dataset(root: root, classes: classNames, samples: samples, cocoCategoryIDs: classNames.indices.map { $0 + 1 })
    }

    /// The predictions as a COCO results file for `dataset(root:)` (`COCOResultsWriter`).
    public func cocoResultsJSON() throws -> Data {
        try COCOResultsWriter.json(predictions.map { ($0.imageIndex, $0.classIndex, $0.box, $0.score) },
                                   for: dataset(root: URL(fileURLWithPath: "/")))
    }
}
