/// How a viewer turns a JPEG's stored pixels to show it: EXIF tag 0x0112 in the first IFD of the
/// APP1 "Exif" segment. Phones write the tag instead of rotating the pixels; browsers, OpenCV's
/// `imread` and Pillow's `exif_transpose` apply it, and annotation tools label the picture they
/// show, so ScreenLab decodes to the shown picture too (boxes, sizes and drawings in its frame).
/// Absent or malformed EXIF means `.normal`, as in viewers: it is metadata, never a reason to
/// refuse an image whose pixels decode.
public enum EXIFOrientation: Int, Sendable, CaseIterable {
    case normal = 1, mirrored, rotated180, flippedVertically, transposed, rotated90Clockwise, transverse, rotated90CounterClockwise

    /// Orientations 5–8 show the picture with width and height exchanged.
    public var exchangesSides: Bool { rawValue >= 5 }

    /// The orientation in one APP1 segment's payload, or nil when the payload is not EXIF.
    /// Every offset is checked against the payload; anything malformed reads as `.normal`.
    static func parse(app1 payload: [UInt8]) -> EXIFOrientation? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard payload.count >= header.count, Array(payload[0..<header.count]) == header else { return nil }
        let tiff = Array(payload[header.count...])
        guard tiff.count >= 8 else { return .normal }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true   // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return .normal
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return littleEndian ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(littleEndian ? at + 2 : at), let low = u16(littleEndian ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return .normal }
        for entry in 0..<entries {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4) else { return .normal }
            // SHORT (type 3), one value, stored in the first two bytes of the value field.
            if tag == 0x0112 {
                guard type == 3, count == 1, let value = u16(at + 8) else { return .normal }
                return EXIFOrientation(rawValue: value) ?? .normal
            }
        }
        return .normal
    }

    /// The picture as a viewer shows it.
    public func apply(to image: RGBImage) -> RGBImage {
        if self == .normal { return image }
        let w = image.width, h = image.height
        let outWidth = exchangesSides ? h : w, outHeight = exchangesSides ? w : h
        // The stored pixel (x, y) shown at each (x', y'), as a start and steps along x' and y'.
        let (start, stepX, stepY): ((Int, Int), (Int, Int), (Int, Int)) = switch self {
        case .normal: ((0, 0), (1, 0), (0, 1))
        case .mirrored: ((w - 1, 0), (-1, 0), (0, 1))
        case .rotated180: ((w - 1, h - 1), (-1, 0), (0, -1))
        case .flippedVertically: ((0, h - 1), (1, 0), (0, -1))
        case .transposed: ((0, 0), (0, 1), (1, 0))
        case .rotated90Clockwise: ((0, h - 1), (0, -1), (1, 0))
        case .transverse: ((w - 1, h - 1), (0, -1), (-1, 0))
        case .rotated90CounterClockwise: ((w - 1, 0), (0, 1), (-1, 0))
        }
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                let stepXBytes = (stepX.1 * w + stepX.0) * 3, stepYBytes = (stepY.1 * w + stepY.0) * 3
                var row = (start.1 * w + start.0) * 3
                var o = 0
                for _ in 0..<outHeight {
                    var i = row
                    for _ in 0..<outWidth {
                        target[o] = source[i]; target[o + 1] = source[i + 1]; target[o + 2] = source[i + 2]
                        o += 3
                        i += stepXBytes
                    }
                    row += stepYBytes
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }
}
