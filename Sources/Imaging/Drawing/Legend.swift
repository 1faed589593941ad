/// A key to an overlay's colours: a strip under the image with a swatch and a name per entry,
/// wrapped to the image's width, so a picture says which colour is which class without the
/// reader matching tags (which dense screens crop or move).
public enum Legend {
    public typealias Entry = (label: String, colorIndex: Int)

    /// `image` with the strip below it. The swatch of an entry is `BoxOverlay.color(forIndex:)`;
    /// entries run left to right and wrap; an entry wider than the image is clipped at its edge.
    public static func appended(to image: RGBImage, entries: [Entry], textScale: Int = 1,
                                background: RGB = RGB(255, 255, 255), ink: RGB = RGB(0, 0, 0)) -> RGBImage {
        let layout = Layout(entries: entries, width: image.width, textScale: max(textScale, 1))
        var out = RGBImage(width: image.width, height: image.height + layout.height, fill: background)
        out.paste(image, x: 0, y: 0)
        for (entry, origin) in zip(entries, layout.origins) {
            let x = origin.x, y = image.height + origin.y
            out.fillRect(x: x, y: y, width: layout.swatch, height: layout.swatch, color: RGBA(BoxOverlay.color(forIndex: entry.colorIndex)))
            out.drawText(entry.label, x: x + layout.swatch + layout.gap, y: y, scale: layout.scale, color: RGBA(ink))
        }
        return out
    }

    /// Where each entry's swatch goes inside the strip, and the strip's height.
    struct Layout {
        let scale: Int, swatch: Int, gap: Int, lineHeight: Int
        var origins: [(x: Int, y: Int)] = []
        var height = 0

        init(entries: [Entry], width: Int, textScale: Int) {
            scale = textScale
            swatch = BitmapFont.capHeight * textScale
            gap = 3 * textScale
            lineHeight = BitmapFont.cellHeight * textScale + gap
            let margin = 2 * gap, right = width - margin
            var x = margin, y = margin
            for entry in entries {
                let entryWidth = swatch + gap + BitmapFont.measure(entry.label, scale: textScale).width
                if x > margin && x + entryWidth > right { (x, y) = (margin, y + lineHeight) }
                origins.append((x, y))
                x += entryWidth + 3 * margin
            }
            height = entries.isEmpty ? 0 : y + lineHeight + gap
        }
    }
}
