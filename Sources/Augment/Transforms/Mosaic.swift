import Data
import Imaging

/// Mosaic (Bochkovskiy et al., YOLOv4; the layout of YOLOv5's `load_mosaic`): four screens on a
/// 2W×2H canvas meeting at a centre point. Each screen is first scaled to fit W×H (keeping
/// its aspect ratio, as the letterbox does), then placed in its quadrant with the corner that
/// faces the centre on the centre: top-left, top-right, bottom-left, bottom-right.
public enum Mosaic {
    /// The canvas for output size W×H, centred at `(centerX, centerY)`; the crop back to W×H
    /// is done by the pipeline's scale/translate stage (one resampling for both). With `visible`
    /// (the part of the canvas that stage reads), the tiles are drawn only there and the rest
    /// of the canvas is left as fill: on average half the tiles' pixels are never read.
    public static func compose(_ tiles: [AnnotatedImage], centerX: Int, centerY: Int,
                               outputWidth: Int, outputHeight: Int, fill: RGB,
                               rules: AugmentPreset.BoxRules,
                               visible: (columns: Range<Int>, rows: Range<Int>)? = nil) -> AnnotatedImage {
        precondition(tiles.count == 4, "mosaic needs four tiles")
        let size = canvasSize(outputWidth: outputWidth, outputHeight: outputHeight)
        var canvas = RGBImage(width: size.width, height: size.height, fill: fill)
        let applied = tiles.enumerated().map { quadrant, tile in
            let map = tileMap(quadrant: quadrant, tileWidth: tile.width, tileHeight: tile.height,
                              centerX: centerX, centerY: centerY, outputWidth: outputWidth, outputHeight: outputHeight)
            return Placement.draw(tile.image, mappedBy: map, into: &canvas, visible: visible)
        }
        var result = AnnotatedImage(image: canvas, annotations: [])
        result.contentRegions = []
        for (tile, map) in zip(tiles, applied) {
            result.merge(boxesAndRegionsOf: AnnotatedImage(image: canvas, placing: tile, with: map, rules: rules))
        }
        return result
    }

    /// The canvas for output size W×H: 2W×2H.
    public static func canvasSize(outputWidth: Int, outputHeight: Int) -> (width: Int, height: Int) {
        (2 * outputWidth, 2 * outputHeight)
    }

    /// Scale to fit W×H (sizes rounded to whole pixels), then put the corner facing the centre on it.
    static func tileMap(quadrant: Int, tileWidth: Int, tileHeight: Int, centerX: Int, centerY: Int,
                        outputWidth: Int, outputHeight: Int) -> BoxMap {
        let fit = min(Double(outputWidth) / Double(tileWidth), Double(outputHeight) / Double(tileHeight))
        let width = max(1, Int((Double(tileWidth) * fit).rounded()))
        let height = max(1, Int((Double(tileHeight) * fit).rounded()))
        let left = quadrant % 2 == 0 ? centerX - width : centerX
        let top = quadrant < 2 ? centerY - height : centerY
        return BoxMap(scaleX: Double(width) / Double(tileWidth), scaleY: Double(height) / Double(tileHeight),
                      offsetX: Double(left), offsetY: Double(top))
    }
}
