import Data
import Imaging

/// Zoom about the centre and shift: maps a canvas (the letterboxed screen, or the 2W×2H mosaic)
/// onto the W×H output, the canvas centre landing on the output centre moved by the shift:
/// u = (x − canvasWidth/2)·scale + W/2 + shiftX (likewise for v).
public enum ScaleTranslate {
    public static func map(canvasWidth: Int, canvasHeight: Int, outputWidth: Int, outputHeight: Int,
                           scale: Double, shiftX: Double, shiftY: Double) -> BoxMap {
        BoxMap(scaleX: scale, scaleY: scale,
               offsetX: Double(outputWidth) / 2 + shiftX - Double(canvasWidth) / 2 * scale,
               offsetY: Double(outputHeight) / 2 + shiftY - Double(canvasHeight) / 2 * scale)
    }

    public static func apply(_ input: AnnotatedImage, map: BoxMap, outputWidth: Int, outputHeight: Int,
                             fill: RGB, rules: AugmentPreset.BoxRules) -> AnnotatedImage {
        if map == .identity, input.width == outputWidth, input.height == outputHeight {
            // No pixel moves, but the boxes still go through clip-and-drop: a source box may stick out.
            return AnnotatedImage(image: input.image, placing: input, with: .identity, rules: rules)
        }
        var canvas = RGBImage(width: outputWidth, height: outputHeight, fill: fill)
        let applied = Placement.draw(input.image, mappedBy: map, into: &canvas)
        return AnnotatedImage(image: canvas, placing: input, with: applied, rules: rules)
    }
}
