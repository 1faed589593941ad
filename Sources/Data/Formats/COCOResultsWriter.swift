import Foundation
import Support

/// Writes predictions in the COCO *results* format that pycocotools' `loadRes` and
/// `screenlab eval` read: `[{"image_id", "category_id", "bbox": [x, y, w, h], "score"}]`.
///
/// Ids are the dataset's own when it came from COCO (`Sample.cocoImageID`,
/// `Dataset.cocoCategoryIDs`); otherwise `image_id` is the sample's image path and
/// `category_id` the class name, which ScreenLab's evaluator also accepts (pycocotools needs
/// numbers: convert the ground truth to COCO first so it has ids). Numbers are written in
/// their shortest form that reads back to the same double (`JSONWriter.number`), so nothing is lost.
public enum COCOResultsWriter {
    /// One prediction: a box of class `classIndex` on `dataset.samples[sampleIndex]` (a tuple,
    /// so Evaluation's `PredictedBox` maps onto it without a second struct of the same shape).
    public typealias Prediction = (sampleIndex: Int, classIndex: Int, box: BoundingBox, score: Double)

    /// Writes atomically (temp file, fsync, rename).
    public static func write(_ predictions: [Prediction], for dataset: Dataset, to url: URL) throws {
        try AtomicFile.write(try json(predictions, for: dataset), to: url)
    }

    public static func json(_ predictions: [Prediction], for dataset: Dataset) throws -> Data {
        let categoryIDs = dataset.cocoCategoryIDs.flatMap { $0.count == dataset.classes.count ? $0 : nil }
        var text = "["
        for (position, p) in predictions.enumerated() {
            func bad(_ reason: String) -> DatasetError {
                .unreadable(file: "prediction \(position + 1)", line: nil, reason: reason)
            }
            guard dataset.samples.indices.contains(p.sampleIndex) else {
                throw bad("sample index \(p.sampleIndex) but the dataset has \(dataset.samples.count) samples")
            }
            guard dataset.classes.indices.contains(p.classIndex) else {
                throw bad("class index \(p.classIndex) but the dataset has \(dataset.classes.count) classes")
            }
            let values = [p.box.x, p.box.y, p.box.width, p.box.height, p.score]
            guard values.allSatisfy(\.isFinite) else { throw bad("box or score is not finite: \(values); JSON has no NaN or infinity") }
            let sample = dataset.samples[p.sampleIndex]
            let image = sample.cocoImageID.map(String.init) ?? JSONWriter.quoted(sample.imagePath)
            let category = categoryIDs.map { String($0[p.classIndex]) } ?? JSONWriter.quoted(dataset.classes[p.classIndex])
            let bbox = values.prefix(4).map(JSONWriter.number).joined(separator: ",")
            text += (position == 0 ? "\n" : ",\n")
                + "{\"image_id\":\(image),\"category_id\":\(category),\"bbox\":[\(bbox)],\"score\":\(JSONWriter.number(p.score))}"
        }
        text += predictions.isEmpty ? "]\n" : "\n]\n"
        return Data(text.utf8)
    }
}
