/// Coloured box outlines with filled label tags, for looking at labels, augmentations and predictions.
public enum BoxOverlay {
    /// 24 colours chosen to stay distinguishable from each other and from typical UI greys;
    /// a class (or any index) keeps its colour across images.
    public static let palette: [RGB] = hexPalette.map { RGB(UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)) }

    private static let hexPalette: [UInt32] = [
        0xE6194B, 0x3CB44B, 0x4363D8, 0xF58231, 0x911EB4, 0x42D4F4, 0xF032E6, 0xBFEF45,
        0xFABED4, 0x469990, 0xDCBEFF, 0x9A6324, 0xFFE119, 0x800000, 0xAAFFC3, 0x808000,
        0xFFD8B1, 0x000075, 0xA9A9A9, 0x00A86B, 0xFF6F61, 0x6B5B95, 0x88B04B, 0x0099CC,
    ]

    /// Palette colour for any index (negative indices wrap too).
    public static func color(forIndex index: Int) -> RGB {
        palette[((index % palette.count) + palette.count) % palette.count]
    }
}

public typealias OverlayBox = (x: Double, y: Double, width: Double, height: Double, label: String, colorIndex: Int)

/// Draws each box's outline (`lineWidth` pixels, inside the box's pixel extent) in
/// `BoxOverlay.color(forIndex:)`, then a filled tag holding its `label` where `LabelPlacement`
/// finds room (above its top-left corner when free). All outlines go down before any tag, so no
/// later box's edge cuts through an earlier label. Empty labels draw no tag.
public func drawBoxes(_ boxes: [OverlayBox], on image: inout RGBImage, lineWidth: Int = 2, textScale: Int = 1) {
    let lineWidth = max(lineWidth, 1), textScale = max(textScale, 1)
    var tagged: [(rect: LabelPlacement.Rect, label: String, color: RGBA)] = []
    for box in boxes where [box.x, box.y, box.x + box.width, box.y + box.height].allSatisfy({ abs($0) < 1e8 }) {
        let color = RGBA(BoxOverlay.color(forIndex: box.colorIndex))
        let x0 = Int(box.x.rounded(.down)), y0 = Int(box.y.rounded(.down))
        let x1 = max(Int((box.x + box.width).rounded(.up)), x0 + 1), y1 = max(Int((box.y + box.height).rounded(.up)), y0 + 1)
        let w = x1 - x0, h = y1 - y0
        let t = min(lineWidth, w, h)
        image.fillRect(x: x0, y: y0, width: w, height: t, color: color)
        image.fillRect(x: x0, y: y1 - t, width: w, height: t, color: color)
        image.fillRect(x: x0, y: y0, width: t, height: h, color: color)
        image.fillRect(x: x1 - t, y: y0, width: t, height: h, color: color)
        if !box.label.isEmpty { tagged.append(((x0, y0, w, h), box.label, color)) }
    }
    let pad = textScale
    // The descender rows act as the tag's bottom padding.
    let sizes = tagged.map { tag -> (width: Int, height: Int) in
        let text = BitmapFont.measure(tag.label, scale: textScale)
        return (text.width + 2 * pad, text.height + pad)
    }
    let origins = LabelPlacement.place(boxes: tagged.map(\.rect), tagSizes: sizes, imageWidth: image.width, imageHeight: image.height)
    for ((tag, size), origin) in zip(zip(tagged, sizes), origins) {
        image.fillRect(x: origin.x, y: origin.y, width: size.width, height: size.height, color: tag.color)
        let ink: RGBA = tag.color.luma > 150 ? .black : .white
        image.drawText(tag.label, x: origin.x + pad, y: origin.y + pad, scale: textScale, color: ink)
    }
}
