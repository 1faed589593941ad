import CPNG
import Foundation

/// PNG through libpng's simplified API (`png_image`): it reports errors in `image.message`
/// instead of longjmp, which must never unwind through Swift frames.
enum PNGCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes any PNG (gray, gray+alpha, palette, RGB, RGBA, 1–16 bit, interlaced) to RGB8.
    /// Alpha is composited over white (a transparent screenshot margin reads as a white page,
    /// not as black): `out = (c·a + 255·(255 − a) + 127) / 255`, computed here rather than by
    /// libpng so the rule is exact and documented. 16-bit samples without gamma information
    /// are taken as sRGB-encoded (libpng would otherwise assume linear light), and a gAMA
    /// chunk is ignored — the simplified API would re-encode such files to sRGB, while Pillow
    /// and OpenCV return the stored samples; a model must see the same values in both worlds.
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String) throws -> RGBImage {
        if let gamma = gammaChunk(bytes) {
            var copy = [UInt8](bytes)
            copy.removeSubrange(gamma)
            return try copy.withUnsafeBytes { try decode($0, name: name) }
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw error(from: &image, name: name, stage: "header")
        }
        // After a failure libpng has already freed `image`; png_image_free is then a no-op.
        defer { png_image_free(&image) }

        let width = Int(image.width), height = Int(image.height)
        try ImageLimits.check(width: width, height: height, name: name)
        let hasAlpha = image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
        let channels = hasAlpha ? 4 : 3
        image.format = png_uint_32(PNG_FORMAT_RGB) | (hasAlpha ? png_uint_32(PNG_FORMAT_FLAG_ALPHA) : 0)
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)

        var decoded = [UInt8](repeating: 0, count: width * height * channels)
        let finished = decoded.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * channels), nil)
        }
        guard finished != 0 else { throw error(from: &image, name: name, stage: "pixels") }
        if hasAlpha { compositeOverWhite(&decoded, pixelCount: width * height) }
        return RGBImage(width: width, height: height, pixels: decoded)
    }

    /// The byte range of a gAMA chunk (length, type, data, CRC), which must precede IDAT.
    static func gammaChunk(_ bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        var offset = signature.count
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            if type == "IDAT" || length > bytes.count || end > bytes.count { return nil }
            if type == "gAMA" { return offset..<end }
            offset = end
        }
        return nil
    }

    /// Turns RGBA bytes into RGB bytes in place (the output is a prefix of the input), then trims.
    private static func compositeOverWhite(_ bytes: inout [UInt8], pixelCount: Int) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            for i in 0..<pixelCount {
                let source = p + i * 4, target = p + i * 3
                let alpha = UInt32(source[3]), background = 255 * (255 - alpha) + 127
                // Reads of pixel i happen before its writes, and target ≤ source: safe in place.
                let r = UInt32(source[0]), g = UInt32(source[1]), b = UInt32(source[2])
                target[0] = UInt8((r * alpha + background) / 255)
                target[1] = UInt8((g * alpha + background) / 255)
                target[2] = UInt8((b * alpha + background) / 255)
            }
        }
        bytes.removeLast(pixelCount)
    }

    /// Encodes RGB8 as an 8-bit RGB PNG. `fast` trades file size (about 1.5–2× larger) for
    /// several times faster compression (PNG_IMAGE_FLAG_FAST: lower zlib level, fewer filters).
    static func encode(_ rgb: RGBImage, fast: Bool, name: String) throws -> Data {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(rgb.width)
        image.height = png_uint_32(rgb.height)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        image.flags = fast ? png_uint_32(PNG_IMAGE_FLAG_FAST) : 0
        guard rgb.width > 0, rgb.height > 0 else {
            throw ImageError(file: name, kind: .writeFailed, detail: "PNG cannot hold a \(rgb.width)×\(rgb.height) image")
        }
        // Deflate's worst case is the raw size plus ~0.03 %, IDAT chunks add 12 bytes per 8 KB:
        // one guess almost always fits, and libpng reports the exact size if it does not.
        let rawSize = rgb.height * (rgb.width * 3 + 1)
        var capacity = rawSize + rawSize / 64 + 4096
        for _ in 0..<2 {
            var output = Data(count: capacity)
            var written = png_alloc_size_t(capacity)
            let ok = output.withUnsafeMutableBytes { out in
                rgb.pixels.withUnsafeBytes { pixels in
                    png_image_write_to_memory(&image, out.baseAddress, &written, 0, pixels.baseAddress,
                                              png_int_32(rgb.width * 3), nil)
                }
            }
            if ok != 0 {
                output.count = Int(written)
                return output
            }
            guard written > capacity else { break }
            capacity = Int(written)
            image.opaque = nil
            image.warning_or_error = 0
        }
        throw error(from: &image, name: name, stage: "encode", kind: .writeFailed)
    }

    private static func error(from image: inout png_image, name: String, stage: String,
                              kind explicitKind: ImageError.Kind? = nil) -> ImageError {
        let message = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let kind = explicitKind ?? classify(message)
        return ImageError(file: name, kind: kind, detail: "libpng \(stage): \(message.isEmpty ? "unknown error" : message)")
    }

    /// libpng's memory reader says "read beyond end of data"; the chunk reader says
    /// "Not enough image data" / "unexpected end" when IDAT stops early.
    private static func classify(_ message: String) -> ImageError.Kind {
        let lower = message.lowercased()
        let truncationHints = ["end of data", "not enough image data", "unexpected end", "truncated", "too short"]
        return truncationHints.contains(where: lower.contains) ? .truncated : .corrupt
    }
}

/// Sizes beyond any screenshot are refused before allocating (a corrupt header can claim 2³¹ px).
/// 2²⁶ pixels (67 MP: an 8K screen is 33 MP, the largest iPad 5.6 MP) decode into 200 MB of RGB;
/// the old 2²⁸ let one valid 16384×16384 PNG take 1.6 GB while decoding and four exhaust the machine.
enum ImageLimits {
    static let maxSide = 1 << 15
    static let maxPixels = 1 << 26

    static func check(width: Int, height: Int, name: String) throws {
        guard width > 0, height > 0 else {
            throw ImageError(file: name, kind: .corrupt, detail: "header says \(width)×\(height)")
        }
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw ImageError(file: name, kind: .unsupported,
                             detail: "\(width)×\(height) exceeds the \(maxSide)-pixel side / \(maxPixels)-pixel limit (no screen is that large; scale the image down first)")
        }
    }
}
