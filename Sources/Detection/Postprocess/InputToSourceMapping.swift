import Data

/// How model-input pixels map back to the source image: the inverse of the letterbox that made
/// the input. It mirrors Imaging's `Letterbox` (Detection does not import Imaging):
/// x_source = (x_input − padLeft) · sourceWidth / resizedWidth, likewise for y, where
/// resizedWidth = scaleX · sourceWidth is the width the source was resized to. Built from
/// `Letterbox`'s integer fields (`init(sourceWidth:sourceHeight:resizedWidth:resizedHeight:padLeft:padTop:)`),
/// it maps each corner with the same operations in the same order as `Letterbox.toSource(x:y:)`,
/// so the corners are bit-identical to Imaging's.
public struct InputToSourceMapping: Equatable, Sendable {
    /// Input pixels per source pixel along x and y (`Letterbox.scaleX`, `scaleY`).
    public let scaleX: Double
    public let scaleY: Double
    /// Fill on the left and top of the input, in input pixels.
    public let padLeft: Double
    public let padTop: Double
    public let sourceWidth: Double
    public let sourceHeight: Double
    private let resizedWidth: Double
    private let resizedHeight: Double

    public init(scaleX: Double, scaleY: Double, padLeft: Double, padTop: Double, sourceWidth: Double, sourceHeight: Double) {
        precondition(scaleX > 0 && scaleY > 0 && sourceWidth > 0 && sourceHeight > 0,
                     "InputToSourceMapping needs positive scales and source size, got \(scaleX)×\(scaleY), \(sourceWidth)×\(sourceHeight)")
        self.scaleX = scaleX; self.scaleY = scaleY
        self.padLeft = padLeft; self.padTop = padTop
        self.sourceWidth = sourceWidth; self.sourceHeight = sourceHeight
        resizedWidth = scaleX * sourceWidth
        resizedHeight = scaleY * sourceHeight
    }

    /// From `Letterbox`'s fields: exact, since the resized size is kept as the integer it is.
    public init(sourceWidth: Int, sourceHeight: Int, resizedWidth: Int, resizedHeight: Int, padLeft: Int, padTop: Int) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && resizedWidth > 0 && resizedHeight > 0,
                     "InputToSourceMapping needs positive sizes, got source \(sourceWidth)×\(sourceHeight), resized \(resizedWidth)×\(resizedHeight)")
        self.sourceWidth = Double(sourceWidth); self.sourceHeight = Double(sourceHeight)
        self.resizedWidth = Double(resizedWidth); self.resizedHeight = Double(resizedHeight)
        scaleX = Double(resizedWidth) / Double(sourceWidth)
        scaleY = Double(resizedHeight) / Double(sourceHeight)
        self.padLeft = Double(padLeft); self.padTop = Double(padTop)
    }

    /// The input is the source itself (no resize, no padding).
    public static func identity(width: Int, height: Int) -> InputToSourceMapping {
        InputToSourceMapping(sourceWidth: width, sourceHeight: height, resizedWidth: width, resizedHeight: height, padLeft: 0, padTop: 0)
    }

    // Multiply by the source size before dividing, as `Letterbox.sourceLength` does.
    public func sourceX(_ inputX: Double) -> Double { (inputX - padLeft) * sourceWidth / resizedWidth }
    public func sourceY(_ inputY: Double) -> Double { (inputY - padTop) * sourceHeight / resizedHeight }

    /// The box x1, y1, x2, y2 (input pixels) in source pixels, clipped to the source image; nil
    /// when nothing of positive width and height is left (a box in the padding, a reversed or
    /// non-finite box).
    public func sourceBox(x1: Double, y1: Double, x2: Double, y2: Double) -> BoundingBox? {
        guard x1.isFinite, y1.isFinite, x2.isFinite, y2.isFinite else { return nil }
        let box = BoundingBox(minX: sourceX(x1), minY: sourceY(y1), maxX: sourceX(x2), maxY: sourceY(y2))
            .clipped(toWidth: sourceWidth, height: sourceHeight)
        return box.width > 0 && box.height > 0 ? box : nil
    }
}
