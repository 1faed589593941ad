/// An 8-bit RGB image, rows top to bottom, pixels interleaved R, G, B.
/// The one pixel type every codec, transform, drawing routine and augmentation speaks.
public struct RGBImage: Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3,
                     "RGBImage: \(pixels.count) bytes for \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A canvas filled with one colour.
    public init(width: Int, height: Int, fill: RGB = RGB(0, 0, 0)) {
        self.width = width
        self.height = height
        let count = width * height * 3
        if fill.r == fill.g && fill.g == fill.b {
            pixels = [UInt8](repeating: fill.r, count: count)  // a memset: grey (the letterbox's 114) and black
        } else {
            // The first pixel, then copies of what is already written, doubling: a few memcpys, not a byte loop.
            pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                if count > 0 {
                    let base = buffer.baseAddress!
                    base[0] = fill.r; base[1] = fill.g; base[2] = fill.b
                    var filled = 3
                    while filled < count {
                        let chunk = min(filled, count - filled)
                        (base + filled).initialize(from: base, count: chunk)
                        filled += chunk
                    }
                }
                initialized = count
            }
        }
    }

    public subscript(x: Int, y: Int) -> RGB {
        get {
            let i = (y * width + x) * 3
            return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
        }
        set {
            let i = (y * width + x) * 3
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b
        }
    }
}

public struct RGB: Equatable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
}
