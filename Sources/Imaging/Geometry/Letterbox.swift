/// The placement of a source image inside a fixed-size target: scaled by the largest factor
/// that fits, centred, the rest filled (YOLO-style letterbox).
///
/// The source is resized to `resizedWidth`×`resizedHeight` = source × `scale` rounded to whole
/// pixels, so each axis's *actual* factor (`scaleX`, `scaleY`) differs from `scale` by under
/// half a pixel over the image; the coordinate transforms use the actual factors so that a
/// box maps exactly onto the resized pixels. Left/top padding is the floor of half the slack.
public struct Letterbox: Equatable, Sendable {
    public let sourceWidth: Int, sourceHeight: Int
    public let targetWidth: Int, targetHeight: Int
    /// min(targetWidth / sourceWidth, targetHeight / sourceHeight).
    public let scale: Double
    public let resizedWidth: Int, resizedHeight: Int
    /// resizedWidth / sourceWidth and resizedHeight / sourceHeight.
    public let scaleX: Double, scaleY: Double
    public let padLeft: Int, padTop: Int

    public init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && targetWidth > 0 && targetHeight > 0,
                     "Letterbox needs positive sizes, got \(sourceWidth)×\(sourceHeight) → \(targetWidth)×\(targetHeight)")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        scale = min(Double(targetWidth) / Double(sourceWidth), Double(targetHeight) / Double(sourceHeight))
        // The limiting axis lands exactly on the target size; the other is rounded, ≥ 1 px.
        resizedWidth = min(targetWidth, max(1, Int((Double(sourceWidth) * scale).rounded())))
        resizedHeight = min(targetHeight, max(1, Int((Double(sourceHeight) * scale).rounded())))
        scaleX = Double(resizedWidth) / Double(sourceWidth)
        scaleY = Double(resizedHeight) / Double(sourceHeight)
        padLeft = (targetWidth - resizedWidth) / 2
        padTop = (targetHeight - resizedHeight) / 2
    }

    // Multiply by the integer size before dividing, so whole-image edges map exactly.
    private func targetLength(x: Double) -> Double { x * Double(resizedWidth) / Double(sourceWidth) }
    private func targetLength(y: Double) -> Double { y * Double(resizedHeight) / Double(sourceHeight) }
    private func sourceLength(x: Double) -> Double { x * Double(sourceWidth) / Double(resizedWidth) }
    private func sourceLength(y: Double) -> Double { y * Double(sourceHeight) / Double(resizedHeight) }

    public func toTarget(x: Double, y: Double) -> (x: Double, y: Double) {
        (targetLength(x: x) + Double(padLeft), targetLength(y: y) + Double(padTop))
    }

    public func toSource(x: Double, y: Double) -> (x: Double, y: Double) {
        (sourceLength(x: x - Double(padLeft)), sourceLength(y: y - Double(padTop)))
    }

    public func toTarget(_ box: BoundingBox) -> BoundingBox {
        let origin = toTarget(x: box.x, y: box.y)
        return BoundingBox(x: origin.x, y: origin.y, width: targetLength(x: box.width), height: targetLength(y: box.height))
    }

    /// Boxes predicted in the padding come back outside the source image; clip them if needed.
    public func toSource(_ box: BoundingBox) -> BoundingBox {
        let origin = toSource(x: box.x, y: box.y)
        return BoundingBox(x: origin.x, y: origin.y, width: sourceLength(x: box.width), height: sourceLength(y: box.height))
    }

    /// The region of the target holding image pixels (the rest is fill).
    public var contentRect: BoundingBox {
        BoundingBox(x: Double(padLeft), y: Double(padTop), width: Double(resizedWidth), height: Double(resizedHeight))
    }
}

extension RGBImage {
    /// This image scaled to fit `width`×`height`, centred on `fill` (YOLO's grey 114 by default).
    /// `resampling` nil chooses area when shrinking, bilinear when growing.
    public func letterboxed(to width: Int, _ height: Int, fill: RGB = RGB(114, 114, 114),
                            resampling: Resampling? = nil) -> (RGBImage, Letterbox) {
        let box = Letterbox(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height)
        let filter = resampling ?? .automatic(sourceWidth: self.width, sourceHeight: self.height,
                                              targetWidth: box.resizedWidth, targetHeight: box.resizedHeight)
        var canvas = RGBImage(width: width, height: height, fill: fill)
        if box.resizedWidth == self.width && box.resizedHeight == self.height {
            canvas.paste(self, x: box.padLeft, y: box.padTop)
        } else {
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                resample(into: target.baseAddress! + (box.padTop * width + box.padLeft) * 3, rowStride: width * 3,
                         width: box.resizedWidth, height: box.resizedHeight, resampling: filter)
            }
        }
        return (canvas, box)
    }
}
