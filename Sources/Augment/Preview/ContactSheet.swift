import Imaging

/// Tiles images into a grid with gaps, for looking at many augmented screens at once.
public enum ContactSheet {
    public static func compose(_ tiles: [RGBImage], columns: Int, gap: Int = 6, background: RGB = RGB(40, 40, 40)) -> RGBImage {
        guard !tiles.isEmpty, columns > 0 else { return RGBImage(width: 0, height: 0) }
        let columns = min(columns, tiles.count), rows = (tiles.count + columns - 1) / columns
        let cellWidth = tiles.map(\.width).max()!, cellHeight = tiles.map(\.height).max()!
        var sheet = RGBImage(width: columns * cellWidth + (columns + 1) * gap, height: rows * cellHeight + (rows + 1) * gap,
                             fill: background)
        for (index, tile) in tiles.enumerated() {
            let column = index % columns, row = index / columns
            Blit.copy(tile, to: &sheet, atX: gap + column * (cellWidth + gap), y: gap + row * (cellHeight + gap))
        }
        return sheet
    }
}
