import Data
import Detection
import Evaluation
import Foundation
import Imaging
import Support

/// What `screenlab predict` writes: COCO-style results with file and class names, and the
/// images with their detections drawn.
public enum PredictionWriter {
    /// `[{"image_id": stem, "file_name", "category_id": class index, "category_name", "bbox": [x, y, w, h], "score"}]`
    public static func json(_ predictions: [PredictedBox], images: [URL], classes: [String]) -> String {
        var entries: [String] = []
        for p in predictions.sorted(by: { ($0.imageIndex, -$0.score) < ($1.imageIndex, -$1.score) }) {
            let url = images[p.imageIndex]
            let box = [p.box.x, p.box.y, p.box.width, p.box.height].map { String(format: "%.2f", $0) }.joined(separator: ", ")
            entries.append("  {\"image_id\": \(JSONWriter.quoted(url.deletingPathExtension().lastPathComponent)), \"file_name\": \(JSONWriter.quoted(url.lastPathComponent)), "
                + "\"category_id\": \(p.classIndex), \"category_name\": \(JSONWriter.quoted(classes[p.classIndex])), \"bbox\": [\(box)], \"score\": \(String(format: "%.5f", p.score))}")
        }
        return "[\n" + entries.joined(separator: ",\n") + "\n]\n"
    }

    /// The image with each detection outlined in its class colour and labelled "Class 0.87"
    /// (the most confident first, so they get the free spots for their tags), and a legend
    /// below it of the classes found, with their counts.
    public static func drawn(_ image: RGBImage, _ predictions: [PredictedBox], classes: [String]) -> RGBImage {
        var canvas = image
        let boxes: [OverlayBox] = predictions.sorted { $0.score > $1.score }.map {
            ($0.box.x, $0.box.y, $0.box.width, $0.box.height, "\(classes[$0.classIndex]) \(String(format: "%.2f", $0.score))", $0.classIndex)
        }
        drawBoxes(boxes, on: &canvas, lineWidth: 2)
        return Legend.appended(to: canvas, entries: legendEntries(predictions, classes: classes))
    }

    /// "Class (count)" for each class found, in the classes' order.
    static func legendEntries(_ predictions: [PredictedBox], classes: [String]) -> [Legend.Entry] {
        var counts = [Int](repeating: 0, count: classes.count)
        for p in predictions { counts[p.classIndex] += 1 }
        return counts.indices.filter { counts[$0] > 0 }.map { ("\(classes[$0]) (\(counts[$0]))", $0) }
    }
}
