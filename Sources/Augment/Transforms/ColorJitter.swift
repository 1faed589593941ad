import Foundation
import Imaging

/// Photometric transforms; boxes are unchanged.
public enum ColorJitter {
    /// HSV jitter: hue turned by `hueShift` (in turns), saturation and value multiplied by their gains.
    ///
    /// No libm calls (they were a third of the loader's time): `fmod(hue, 2)` for hue in [0, 6] is
    /// `hue − 2·⌊hue / 2⌋`, every step exact, and rounding half away from zero of a non-negative
    /// v is `⌊v⌋ + (v − ⌊v⌋ ≥ ½)`; `⌊·⌋` is one instruction. So the bytes are the textbook formula's
    /// with libm (`ColorJitterTests` compares them).
    public static func hsv(_ image: inout RGBImage, hueShift: Double, saturationGain: Double, valueGain: Double) {
        let shift = Float(hueShift * 6), sGain = Float(saturationGain), vGain = Float(valueGain)
        image.pixels.withUnsafeMutableBufferPointer { bytes in
            guard var pixel = bytes.baseAddress else { return }
            let end = pixel + bytes.count / 3 * 3
            while pixel < end {
                let r = Float(pixel[0]), g = Float(pixel[1]), b = Float(pixel[2])
                let high = max(r, g, b), low = min(r, g, b), chroma = high - low
                // Hue in sextants [0, 6).
                var hue: Float = 0
                if chroma > 0 {
                    if high == r { hue = (g - b) / chroma } else if high == g { hue = (b - r) / chroma + 2 } else { hue = (r - g) / chroma + 4 }
                }
                hue += shift
                hue -= 6 * (hue / 6).rounded(.down)
                let value = min(255, high * vGain)
                let saturation = high > 0 ? min(1, chroma / high * sGain) : 0
                let c = value * saturation, x = c * (1 - abs(hue - 2 * (hue / 2).rounded(.down) - 1)), m = value - c
                let (r1, g1, b1): (Float, Float, Float)
                switch Int(hue) {
                case 0: (r1, g1, b1) = (c, x, 0)
                case 1: (r1, g1, b1) = (x, c, 0)
                case 2: (r1, g1, b1) = (0, c, x)
                case 3: (r1, g1, b1) = (0, x, c)
                case 4: (r1, g1, b1) = (x, 0, c)
                default: (r1, g1, b1) = (c, 0, x)
                }
                pixel[0] = roundedByte(r1 + m)
                pixel[1] = roundedByte(g1 + m)
                pixel[2] = roundedByte(b1 + m)
                pixel += 3
            }
        }
    }

    /// `UInt8(min(255, v.rounded()))` for v ≥ 0, rounding half away from zero without a libm call.
    @inline(__always)
    static func roundedByte(_ v: Float) -> UInt8 {
        let whole = v.rounded(.down)
        return UInt8(min(255, v - whole < 0.5 ? whole : whole + 1))
    }

    /// Luma by ITU-R BT.601 weights (0.299, 0.587, 0.114) in 1/256 fixed point, copied to all three channels.
    public static func grayscale(_ image: inout RGBImage) {
        image.pixels.withUnsafeMutableBufferPointer { bytes in
            var i = 0
            while i < bytes.count {
                let luma = (77 * UInt32(bytes[i]) + 150 * UInt32(bytes[i + 1]) + 29 * UInt32(bytes[i + 2]) + 128) >> 8
                let value = UInt8(min(255, luma))
                bytes[i] = value; bytes[i + 1] = value; bytes[i + 2] = value
                i += 3
            }
        }
    }
}

/// Mirror left–right: x' = W − x − w. Off by default (it mirrors a UI's meaning).
public enum HorizontalFlip {
    public static func apply(_ input: inout AnnotatedImage) {
        let width = input.width, height = input.height
        input.image.pixels.withUnsafeMutableBufferPointer { bytes in
            for row in 0..<height {
                var left = row * width * 3, right = left + (width - 1) * 3
                while left < right {
                    for channel in 0..<3 { bytes.swapAt(left + channel, right + channel) }
                    left += 3; right -= 3
                }
            }
        }
        for index in input.annotations.indices {
            let box = input.annotations[index].box
            // Clamped: a box touching the right edge must not start a rounding error left of 0.
            input.annotations[index].box.x = max(0, Double(width) - box.maxX)
        }
        for index in input.contentRegions.indices {
            let region = input.contentRegions[index]
            input.contentRegions[index].x = Double(width) - region.x - region.width
        }
    }
}
