import Data
import Foundation

/// SSD / Faster R-CNN box coding against an anchor:
/// (dx, dy, dw, dh) = ((gx − ax)/aw / v₀, (gy − ay)/ah / v₁, log(gw/aw) / v₂, log(gh/ah) / v₃)
/// with centres (gx, gy), (ax, ay) and the variances v = (0.1, 0.1, 0.2, 0.2) of SSD (Liu et
/// al. 2016) — they scale the targets to roughly unit variance so one smooth-L1 weight fits all four.
public struct AnchorBoxCoder: Equatable, Sendable {
    public var variances: SIMD4<Float>
    /// Decoded log-scales are clamped to ±this before exp, so an untrained head cannot overflow
    /// (exp(88) is Float's limit) or produce boxes beyond 1000/16 of the anchor: log(1000/16), the
    /// bound of mmdetection's and torchvision's coders.
    public var maximumLogScale: Float

    public init(variances: SIMD4<Float> = [0.1, 0.1, 0.2, 0.2], maximumLogScale: Float = log(1000 / 16)) {
        self.variances = variances
        self.maximumLogScale = maximumLogScale
    }

    /// A degenerate (zero-size) ground truth would encode to log(0) = −∞; it is encoded as this
    /// many pixels instead so one bad annotation cannot turn a loss into NaN.
    private static let minimumEncodedSize = 0.01

    public func encode(_ box: BoundingBox, anchor: AnchorBox) -> SIMD4<Float> {
        let w = max(box.width, Self.minimumEncodedSize), h = max(box.height, Self.minimumEncodedSize)
        let aw = Double(anchor.width), ah = Double(anchor.height)
        let dx = (box.centerX - Double(anchor.centerX)) / aw
        let dy = (box.centerY - Double(anchor.centerY)) / ah
        return SIMD4(Float(dx), Float(dy), Float(log(w / aw)), Float(log(h / ah))) / variances
    }

    /// The box (x1, y1, x2, y2) in input pixels that `offsets` place on `anchor`.
    public func decode(_ offsets: SIMD4<Float>, anchor: AnchorBox) -> SIMD4<Float> {
        let scaled = offsets * variances
        let cx = anchor.centerX + scaled[0] * anchor.width
        let cy = anchor.centerY + scaled[1] * anchor.height
        let w = anchor.width * exp(min(max(scaled[2], -maximumLogScale), maximumLogScale))
        let h = anchor.height * exp(min(max(scaled[3], -maximumLogScale), maximumLogScale))
        return SIMD4(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    }

    /// Decodes a head's offsets [P, 4] (grid order) into boxes [P, 4] as x1, y1, x2, y2.
    public func decode(offsets: UnsafeBufferPointer<Float>, anchors: AnchorGrid, into boxes: UnsafeMutableBufferPointer<Float>) {
        precondition(offsets.count == anchors.count * 4 && boxes.count == offsets.count,
                     "AnchorBoxCoder.decode: \(offsets.count) offsets and \(boxes.count) box values for \(anchors.count) anchors (4 each)")
        for p in 0..<anchors.count {
            let box = decode(SIMD4(offsets[4 * p], offsets[4 * p + 1], offsets[4 * p + 2], offsets[4 * p + 3]),
                             anchor: anchors.anchor(at: p))
            for c in 0..<4 { boxes[4 * p + c] = box[c] }
        }
    }

    public func decode(offsets: [Float], anchors: AnchorGrid) -> [Float] {
        var boxes = [Float](repeating: 0, count: offsets.count)
        offsets.withUnsafeBufferPointer { source in
            boxes.withUnsafeMutableBufferPointer { decode(offsets: source, anchors: anchors, into: $0) }
        }
        return boxes
    }
}
