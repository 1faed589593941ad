import Data
import Detection
import Evaluation
import Foundation
import Imaging
import Support

/// What `screenlab predict` writes: COCO-style results with file and class names, and the
/// images with their detections drawn.
public enum PredictionWriter {
    /// One id per image, unique among `images`, for predictions.json and the pictures' file names:
    /// the file's stem; where stems collide (`a.jpg`, `a.png`) the file name; where those collide
    /// too (`d1/a.jpg`, `d2/a.jpg`) the folders above it, joined by `_`, as far up as it takes;
    /// the same path given twice gets `-2`, `-3`. (Stems alone gave two inputs one picture and
    /// one id, silently.) An id never starts with a dot.
    public static func imageIDs(_ images: [URL]) -> [String] {
        let components = images.map { $0.standardizedFileURL.pathComponents.filter { $0 != "/" } }
        var ids = images.map { $0.deletingPathExtension().lastPathComponent }
        var depth = [Int](repeating: 0, count: images.count)
        func clashes() -> [Int] {
            let counts = Dictionary(ids.map { ($0, 1) }, uniquingKeysWith: +)
            return ids.indices.filter { counts[ids[$0]]! > 1 }
        }
        var clashing = clashes()
        while !clashing.isEmpty {
            var changed = false
            for i in clashing where depth[i] < components[i].count {
                depth[i] += 1
                ids[i] = components[i].suffix(depth[i]).joined(separator: "_")
                changed = true
            }
            if !changed { break }
            clashing = clashes()
        }
        var seen: [String: Int] = [:]
        for i in ids.indices {
            seen[ids[i], default: 0] += 1
            if seen[ids[i]]! > 1 { ids[i] += "-\(seen[ids[i]]!)" }
        }
        return ids.map { $0.hasPrefix(".") ? "_" + $0.dropFirst() : $0 }
    }

    /// `[{"image_id", "file_name", "category_id": class index, "category_name", "bbox": [x, y, w, h], "score"}]`:
    /// `image_id` from `imageIDs`, `file_name` the file's name (its path where two names are alike).
    public static func json(_ predictions: [PredictedBox], images: [URL], classes: [String]) -> String {
        let ids = imageIDs(images)
        let names = images.map(\.lastPathComponent)
        let repeated = Set(Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +).filter { $0.value > 1 }.keys)
        var entries: [String] = []
        for p in predictions.sorted(by: { ($0.imageIndex, -$0.score) < ($1.imageIndex, -$1.score) }) {
            let url = images[p.imageIndex]
            let fileName = repeated.contains(url.lastPathComponent) ? url.path : url.lastPathComponent
            let box = [p.box.x, p.box.y, p.box.width, p.box.height].map { String(format: "%.2f", $0) }.joined(separator: ", ")
            entries.append("  {\"image_id\": \(JSONWriter.quoted(ids[p.imageIndex])), \"file_name\": \(JSONWriter.quoted(fileName)), "
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
