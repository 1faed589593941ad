import Imaging

// TEMPORARY: stands in for Imaging's `writeCHW(into:normalization:)` until it is merged; delete then.
enum ImagingShim {
    static func writeUnitCHW(_ image: RGBImage, into pointer: UnsafeMutablePointer<Float>) {
        let plane = image.width * image.height
        for i in 0..<plane {
            for c in 0..<3 { pointer[c * plane + i] = Float(image.pixels[i * 3 + c]) / 255 }
        }
    }
}
