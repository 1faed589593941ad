import Foundation
import Imaging
import Support

/// What `screenlab predict --accessibility` writes per screen: the view as JSON, and the
/// screenshot with its elements numbered in navigation order.
public enum AccessibilityWriter {
    /// `{"image_id", "file_name", "width", "height", "detections": count, "elements": [{"order"
    /// (1-based), "kind", "grouping", "label_hint", "bbox" [x, y, w, h] in source pixels,
    /// "members": [{"category_id", "category_name", "bbox", "score"}]}]}`, elements in
    /// navigation order and members in theirs.
    public static func json(_ view: AccessibilityView, imageID: String, fileName: String) -> String {
        func box(_ r: BoundingBox) -> String {
            "[" + [r.minX, r.minY, r.width, r.height].map { String(format: "%.2f", $0) }.joined(separator: ", ") + "]"
        }
        func optional(_ text: String?) -> String { text.map(JSONWriter.quoted) ?? "null" }
        var elements: [String] = []
        for (position, element) in view.elements.enumerated() {
            let members = element.members.map { index -> String in
                let d = view.detections[index]
                return "{\"category_id\": \(d.classIndex), \"category_name\": \(JSONWriter.quoted(d.className)), \"bbox\": \(box(d.box)), \"score\": \(String(format: "%.5f", d.score))}"
            }
            elements.append("    {\"order\": \(position + 1), \"kind\": \(JSONWriter.quoted(element.kind)), \"grouping\": \(optional(element.grouping?.rawValue)), "
                + "\"label_hint\": \(optional(element.labelHint)), \"bbox\": \(box(element.box)),\n     \"members\": [\(members.joined(separator: ", "))]}")
        }
        return """
        {"image_id": \(JSONWriter.quoted(imageID)), "file_name": \(JSONWriter.quoted(fileName)), \
        "width": \(JSONWriter.number(view.screen.width)), "height": \(JSONWriter.number(view.screen.height)), \
        "detections": \(view.detections.count), "elements": [
        \(elements.joined(separator: ",\n"))
        ]}

        """
    }

    /// The screenshot with a faint path through the elements in navigation order, each
    /// member detection outlined thinly and each element outlined in its kind's colour with
    /// its number, drawn by Imaging's `drawBoxes` like `predict`'s pictures.
    public static func drawn(_ image: RGBImage, _ view: AccessibilityView) -> RGBImage {
        var canvas = image
        let scale = max(1, min(image.width, image.height) / 600 + 1)
        let centers = view.elements.map { CanvasPoint($0.box.centerX, $0.box.centerY) }
        for (from, to) in zip(centers, centers.dropFirst()) {
            canvas.drawLine(from: from, to: to, thickness: Double(scale), color: RGBA(hex: 0xF032E6, opacity: 0.55))
        }
        let members: [OverlayBox] = view.elements.filter { $0.members.count > 1 }.flatMap { element in
            element.members.map { index in
                let b = view.detections[index].box
                return (b.minX, b.minY, b.width, b.height, "", view.detections[index].classIndex)
            }
        }
        drawBoxes(members, on: &canvas, lineWidth: 1)
        let elements: [OverlayBox] = view.elements.enumerated().map { position, element in
            (element.box.minX, element.box.minY, element.box.width, element.box.height, "\(position + 1)", colorIndex(forKind: element.kind))
        }
        drawBoxes(elements, on: &canvas, lineWidth: 2 * scale, textScale: scale)
        return canvas
    }

    /// The Screen Recognition classes in `Taxonomy.screenRecognition`'s order (so an element
    /// keeps the colour `predict` gives its class with those weights), then the kinds grouping
    /// adds; any other name gets a colour from its characters.
    static let kindOrder = [
        "checkbox (selected)", "checkbox (unselected)", "container", "dialog", "icon", "page control",
        "picture", "segmented control", "slider", "text", "text field", "toggle (selected)", "toggle (unselected)", "tab button",
    ]

    static func colorIndex(forKind kind: String) -> Int {
        let name = kind.trimmingCharacters(in: .whitespaces).lowercased()
        if let index = kindOrder.firstIndex(of: name) { return index }
        return name.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
    }
}
