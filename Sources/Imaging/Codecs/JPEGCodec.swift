import CTurboJPEG
import Foundation

/// JPEG through the TurboJPEG 2.x API (the installed libjpeg-turbo 2.1 has no tj3 functions).
enum JPEGCodec {
    static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Decodes baseline, progressive, grayscale and CMYK/YCCK JPEGs to RGB8, turned as its EXIF
    /// orientation says (the picture a viewer shows).
    /// Warnings are errors (TJFLAG_STOPONWARNING): libjpeg only *warns* on "Premature end of
    /// JPEG file" and fills the missing rows with grey, which must not reach training.
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String) throws -> RGBImage {
        let stored = try decodeStored(bytes, name: name)
        return JPEGMarkers.orientation(read: { JPEGMarkers.slice(bytes, $0, $1) }).apply(to: stored)
    }

    /// The pixels as stored, before the EXIF orientation.
    static func decodeStored(_ bytes: UnsafeRawBufferPointer, name: String) throws -> RGBImage {
        guard let handle = tjInitDecompress() else {
            throw ImageError(file: name, kind: .corrupt, detail: "TurboJPEG could not create a decompressor")
        }
        defer { tjDestroy(handle) }
        let source = bytes.bindMemory(to: UInt8.self).baseAddress!
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0 else {
            throw error(handle, name: name, stage: "header")
        }
        if width == 0 || height == 0 {
            // libjpeg's memory source fakes an EOI at the end of the data, so a file cut before
            // its frame header "succeeds" with a 0×0 size.
            let end = try? JPEGMarkers.walk(read: { JPEGMarkers.slice(bytes, $0, $1) }) { !JPEGMarkers.isStartOfFrame($0.marker) }
            throw ImageError(file: name, kind: end == .endOfData ? .truncated : .corrupt,
                             detail: "no JPEG frame header (SOF) before the data ends")
        }
        try ImageLimits.check(width: Int(width), height: Int(height), name: name)
        let w = Int(width), h = Int(height)
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let flags = TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT
        if !isCMYK {
            // libjpeg converts grayscale and YCbCr to RGB itself.
            var pixels = [UInt8](repeating: 0, count: w * h * 3)
            let status = pixels.withUnsafeMutableBufferPointer {
                tjDecompress2(handle, source, UInt(bytes.count), $0.baseAddress, width, 0, height, Int32(TJPF_RGB.rawValue), flags)
            }
            guard status == 0 else { throw error(handle, name: name, stage: "pixels") }
            return RGBImage(width: w, height: h, pixels: pixels)
        }
        // libjpeg cannot convert CMYK to RGB; decode CMYK and convert here.
        var cmyk = [UInt8](repeating: 0, count: w * h * 4)
        let status = cmyk.withUnsafeMutableBufferPointer {
            tjDecompress2(handle, source, UInt(bytes.count), $0.baseAddress, width, 0, height, Int32(TJPF_CMYK.rawValue), flags)
        }
        guard status == 0 else { throw error(handle, name: name, stage: "pixels") }
        let inverted = JPEGMarkers.hasAdobeMarker(bytes)
        return cmykToRGB(cmyk, width: w, height: h, inverted: inverted)
    }

    /// Naive (profile-free) CMYK → RGB: R = (255 − C)(255 − K)/255. Photoshop writes CMYK JPEGs
    /// with an Adobe APP14 marker and *inverted* samples; like Pillow, samples are taken as
    /// inverted exactly when that marker is present.
    static func cmykToRGB(_ cmyk: [UInt8], width: Int, height: Int, inverted: Bool) -> RGBImage {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        cmyk.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for i in 0..<(width * height) {
                    var c = UInt32(source[i * 4]), m = UInt32(source[i * 4 + 1])
                    var y = UInt32(source[i * 4 + 2]), k = UInt32(source[i * 4 + 3])
                    if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                    target[i * 3] = UInt8((c * k + 127) / 255)
                    target[i * 3 + 1] = UInt8((m * k + 127) / 255)
                    target[i * 3 + 2] = UInt8((y * k + 127) / 255)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// Encodes RGB8 as a baseline JPEG (4:2:0 chroma subsampling, `quality` 1…100).
    static func encode(_ image: RGBImage, quality: Int, name: String) throws -> Data {
        guard image.width > 0, image.height > 0 else {
            throw ImageError(file: name, kind: .writeFailed, detail: "JPEG cannot hold a \(image.width)×\(image.height) image")
        }
        guard (1...100).contains(quality) else {
            throw ImageError(file: name, kind: .writeFailed, detail: "JPEG quality \(quality) is outside 1…100")
        }
        guard let handle = tjInitCompress() else {
            throw ImageError(file: name, kind: .writeFailed, detail: "TurboJPEG could not create a compressor")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = image.pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_ACCURATEDCT)
        }
        guard status == 0, let output else {
            throw ImageError(file: name, kind: .writeFailed, detail: "TurboJPEG: \(message(handle))")
        }
        return Data(bytes: output, count: Int(size))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }

    private static func error(_ handle: tjhandle, name: String, stage: String) -> ImageError {
        let text = message(handle)
        let lower = text.lowercased()
        // "Premature end of JPEG file" (libjpeg JWRN_JPEG_EOF) and an input that ends inside the header.
        let truncated = lower.contains("premature end") || lower.contains("end of data") || lower.contains("truncated")
        let warning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
        return ImageError(file: name, kind: truncated ? .truncated : .corrupt,
                          detail: "libjpeg \(stage) \(warning ? "warning" : "error"): \(text)")
    }
}
