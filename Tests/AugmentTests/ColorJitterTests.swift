import XCTest
@testable import Augment
import Imaging

/// `ColorJitter.hsv` runs sixteen pixels at a time with libm's fmod and round replaced by exact
/// arithmetic; the bytes must be the per-pixel formula's (augmented images, and so training runs,
/// depend on them bit for bit).
final class ColorJitterTests: XCTestCase {
    /// The per-pixel formula as the loader used it before the lanes (the specification).
    static func referenceHSV(_ image: inout RGBImage, hueShift: Double, saturationGain: Double, valueGain: Double) {
        let shift = Float(hueShift * 6), sGain = Float(saturationGain), vGain = Float(valueGain)
        image.pixels.withUnsafeMutableBufferPointer { bytes in
            var i = 0
            while i < bytes.count {
                let r = Float(bytes[i]), g = Float(bytes[i + 1]), b = Float(bytes[i + 2])
                let high = max(r, g, b), low = min(r, g, b), chroma = high - low
                var hue: Float = 0
                if chroma > 0 {
                    if high == r { hue = (g - b) / chroma } else if high == g { hue = (b - r) / chroma + 2 } else { hue = (r - g) / chroma + 4 }
                }
                hue += shift
                hue -= 6 * (hue / 6).rounded(.down)
                let value = min(255, high * vGain)
                let saturation = high > 0 ? min(1, chroma / high * sGain) : 0
                let c = value * saturation, x = c * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1)), m = value - c
                let (r1, g1, b1): (Float, Float, Float)
                switch Int(hue) {
                case 0: (r1, g1, b1) = (c, x, 0)
                case 1: (r1, g1, b1) = (x, c, 0)
                case 2: (r1, g1, b1) = (0, c, x)
                case 3: (r1, g1, b1) = (0, x, c)
                case 4: (r1, g1, b1) = (x, 0, c)
                default: (r1, g1, b1) = (c, 0, x)
                }
                bytes[i] = UInt8(min(255, (r1 + m).rounded()))
                bytes[i + 1] = UInt8(min(255, (g1 + m).rounded()))
                bytes[i + 2] = UInt8(min(255, (b1 + m).rounded()))
                i += 3
            }
        }
    }

    /// Every 5th value of each channel plus the extremes and near-greys, an odd pixel count (so
    /// the last sixteen-lane chunk is partial), under shifts both ways, past a full turn, and
    /// gains that clamp.
    func testLanesGiveTheReferenceBytes() {
        var pixels: [UInt8] = []
        let levels = Array(stride(from: 0, through: 255, by: 5)) + [1, 2, 127, 128, 254]
        for r in levels { for g in levels { for b in levels { pixels += [UInt8(r), UInt8(g), UInt8(b)] } } }
        pixels += [7, 7, 8, 200, 199, 200, 0, 0, 1]
        XCTAssertNotEqual((pixels.count / 3) % 16, 0)
        let image = RGBImage(width: pixels.count / 3, height: 1, pixels: pixels)
        let settings: [(Double, Double, Double)] = [
            (0, 1, 1), (0.015, 1.5, 0.6), (-0.015, 0.5, 1.4), (1.0 / 3, 1, 1), (-0.49, 0, 2), (0.9, 1.3, 1), (1.7, 2, 0.3), (-2.2, 1, 1.7),
        ]
        for (shift, saturation, value) in settings {
            var lanes = image, reference = image
            ColorJitter.hsv(&lanes, hueShift: shift, saturationGain: saturation, valueGain: value)
            Self.referenceHSV(&reference, hueShift: shift, saturationGain: saturation, valueGain: value)
            let differing = zip(lanes.pixels, reference.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "hue \(shift), saturation ×\(saturation), value ×\(value): \(differing) bytes differ")
        }
    }

    /// Random settings and pixels, as the pipeline draws them.
    func testRandomSettingsGiveTheReferenceBytes() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let pixels = (0..<(3 * 1001)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let image = RGBImage(width: 1001, height: 1, pixels: pixels)
            let shift = Double.random(in: -0.05...0.05, using: &random)
            let saturation = Double.random(in: 0.4...1.6, using: &random), value = Double.random(in: 0.5...1.5, using: &random)
            var lanes = image, reference = image
            ColorJitter.hsv(&lanes, hueShift: shift, saturationGain: saturation, valueGain: value)
            Self.referenceHSV(&reference, hueShift: shift, saturationGain: saturation, valueGain: value)
            XCTAssertEqual(lanes.pixels, reference.pixels, "hue \(shift), saturation ×\(saturation), value ×\(value)")
        }
    }
}
