/// Several images side by side in a grid, for previews and README figures.
public enum ContactSheet {
    /// Images laid out row by row in `columns` columns, each cell as large as the largest image,
    /// `gap` pixels apart and around, on `background`.
    public static func grid(_ images: [RGBImage], columns: Int, gap: Int = 12, background: RGB = RGB(128, 128, 128)) -> RGBImage {
        guard !images.isEmpty else { return RGBImage(width: 0, height: 0) }
        let columns = max(1, min(columns, images.count)), rows = (images.count + columns - 1) / columns
        let cellWidth = images.map(\.width).max()!, cellHeight = images.map(\.height).max()!
        var sheet = RGBImage(width: columns * cellWidth + (columns + 1) * gap, height: rows * cellHeight + (rows + 1) * gap, fill: background)
        for (index, image) in images.enumerated() {
            sheet.paste(image, x: gap + (index % columns) * (cellWidth + gap), y: gap + (index / columns) * (cellHeight + gap))
        }
        return sheet
    }
}
