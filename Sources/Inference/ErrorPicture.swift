import Data
import Evaluation
import Imaging

/// A model's errors drawn on a screenshot (`ScreenErrors`): hits in green without tags, so the
/// eye goes to what is wrong — missed boxes in blue, false positives in red, badly placed boxes
/// in orange, wrong classes in purple, each tagged with its class — under a title line with the
/// counts. Panels of several models on one screen go side by side with one legend.
public enum ErrorPicture {
    /// Palette indices of `BoxOverlay` (red, green, blue, orange, purple).
    static let falsePositive = 0, hit = 1, missed = 2, badlyPlaced = 3, wrongClass = 4

    public static let legend: [Legend.Entry] = [
        ("hit", hit), ("missed box", missed), ("false positive", falsePositive),
        ("badly placed (IoU < 0.5)", badlyPlaced), ("wrong class", wrongClass),
    ]

    /// The screen scaled to `height` pixels with `errors` drawn on it and `title` above.
    public static func panel(_ image: RGBImage, sample: Sample, errors: ScreenErrors, classes: [String], title: String, height: Int = 720) -> RGBImage {
        let scale = Double(height) / Double(max(image.height, 1))
        let width = max(1, Int((Double(image.width) * scale).rounded()))
        var canvas = image.resized(width: width, height: height)
        func scaled(_ b: BoundingBox, _ label: String, _ color: Int) -> OverlayBox {
            (b.x * scale, b.y * scale, b.width * scale, b.height * scale, label, color)
        }
        var boxes: [OverlayBox] = []
        for d in errors.detections where d.outcome == .hit { boxes.append(scaled(d.prediction.box, "", hit)) }
        for g in errors.missed {
            let truth = sample.annotations[g]
            boxes.append(scaled(truth.box, classes.indices.contains(truth.classIndex) ? classes[truth.classIndex] : "?", missed))
        }
        for d in errors.detections where d.outcome != .hit {
            let color = d.outcome == .falsePositive ? falsePositive : d.outcome == .badlyPlaced ? badlyPlaced : wrongClass
            boxes.append(scaled(d.prediction.box, classes[d.prediction.classIndex], color))
        }
        drawBoxes(boxes, on: &canvas, lineWidth: 2)
        let counts = errors.count
        let summary = "\(title): \(counts.hits) hits, \(counts.misses) missed, \(errors.detections.count - counts.hits) wrong detections"
        let strip = BitmapFont.cellHeight * 2 + 8
        var out = RGBImage(width: width, height: height + strip, fill: RGB(255, 255, 255))
        _ = out.drawText(summary, x: 4, y: 4, scale: 1, color: .black)
        _ = out.drawText(sample.id, x: 4, y: 4 + BitmapFont.cellHeight, scale: 1, color: RGBA(RGB(90, 90, 90)))
        out.paste(canvas, x: 0, y: strip)
        return out
    }

    /// Panels side by side (as `ContactSheet` lays them out) with the colour key below.
    public static func sideBySide(_ panels: [RGBImage]) -> RGBImage {
        Legend.appended(to: ContactSheet.grid(panels, columns: panels.count, gap: 8, background: RGB(255, 255, 255)), entries: legend)
    }
}
