import Foundation
import Support

/// Reading and writing image files. The format is sniffed from the magic bytes, never from
/// the extension (datasets contain PNGs named .jpg and the other way round).
public enum ImageIO {
    public enum Format: String, Sendable { case png, jpeg }

    /// Reads a PNG or JPEG file into RGB8 (PNG alpha is composited over white).
    public static func read(_ url: URL) throws -> RGBImage {
        let data = try contents(of: url)
        return try decode(data, name: url.path)
    }

    /// Decodes PNG or JPEG bytes; `name` is used in error messages.
    public static func decode(_ data: Data, name: String) throws -> RGBImage {
        let format = try sniff(Array(data.prefix(16)), name: name)
        return try data.withUnsafeBytes { bytes in
            switch format {
            case .png: return try PNGCodec.decode(bytes, name: name)
            case .jpeg: return try JPEGCodec.decode(bytes, name: name)
            }
        }
    }

    /// Width and height from the header only (PNG IHDR, JPEG SOF): reads a few hundred bytes,
    /// for checking thousands of dataset files quickly. Does not validate the pixel data.
    public static func readSize(_ url: URL) throws -> (width: Int, height: Int) {
        try ImageHeader.readSize(url)
    }

    /// Throws `.truncated` when a PNG lacks its closing IEND chunk or a JPEG its end-of-image
    /// marker: reads the first and last kilobyte only (see `ImageCompleteness`).
    public static func checkComplete(_ url: URL) throws {
        try ImageCompleteness.check(url)
    }

    /// Encodes RGB8 as an 8-bit RGB PNG. `fast` compresses several times faster into a larger file.
    public static func encodePNG(_ image: RGBImage, fast: Bool = false) throws -> Data {
        try PNGCodec.encode(image, fast: fast, name: "<PNG in memory>")
    }

    /// Writes a PNG atomically (temporary file + rename), creating the folder if needed.
    public static func writePNG(_ image: RGBImage, to url: URL, fast: Bool = false) throws {
        let data = try PNGCodec.encode(image, fast: fast, name: url.path)
        try atomicWrite(data, to: url)
    }

    /// Encodes RGB8 as a baseline 4:2:0 JPEG; `quality` in 1…100.
    public static func encodeJPEG(_ image: RGBImage, quality: Int = 90) throws -> Data {
        try JPEGCodec.encode(image, quality: quality, name: "<JPEG in memory>")
    }

    public static func writeJPEG(_ image: RGBImage, to url: URL, quality: Int = 90) throws {
        let data = try JPEGCodec.encode(image, quality: quality, name: url.path)
        try atomicWrite(data, to: url)
    }

    /// The format named by the first bytes, or an ImageError saying what the bytes are instead.
    public static func sniff(_ head: [UInt8], name: String) throws -> Format {
        if head.isEmpty { throw ImageError(file: name, kind: .empty, detail: "") }
        if head.starts(with: PNGCodec.signature) { return .png }
        if head.starts(with: JPEGCodec.signature) { return .jpeg }
        // A file cut inside the signature itself.
        if head.count < PNGCodec.signature.count, PNGCodec.signature.starts(with: head) {
            throw ImageError(file: name, kind: .truncated, detail: "only \(head.count) bytes of the PNG signature")
        }
        if head.count < JPEGCodec.signature.count, JPEGCodec.signature.starts(with: head) {
            throw ImageError(file: name, kind: .truncated, detail: "only \(head.count) bytes of the JPEG signature")
        }
        if let other = otherFormat(head) {
            throw ImageError(file: name, kind: .unsupported, detail: "\(other) file; only PNG and JPEG are decoded")
        }
        throw ImageError(file: name, kind: .notAnImage, detail: "starts with \(describe(head))")
    }

    static func contents(of url: URL) throws -> Data {
        let file = try ImageFile.open(url)
        let bytes: [UInt8]
        do { bytes = try file.readAll(after: []) } catch let error as FileReadError {
            throw ImageError(file: url.path, kind: .unreadable, detail: error.reason)
        }
        if bytes.isEmpty { throw ImageError(file: url.path, kind: .empty, detail: "") }
        return Data(bytes)
    }

    private static func atomicWrite(_ data: Data, to url: URL) throws {
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw ImageError(file: url.path, kind: .writeFailed, detail: "\(error)")
        }
    }

    private static func otherFormat(_ head: [UInt8]) -> String? {
        func ascii(_ range: Range<Int>) -> String {
            guard head.count >= range.upperBound else { return "" }
            return String(decoding: head[range], as: UTF8.self)
        }
        if ascii(0..<4) == "GIF8" { return "GIF" }
        if ascii(0..<2) == "BM" { return "BMP" }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "WebP" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if ascii(4..<8) == "ftyp" { return "HEIF/AVIF (ftyp \(ascii(8..<12)))" }
        return nil
    }

    /// "text \"hello wor…\"" for printable ASCII, otherwise hex bytes.
    private static func describe(_ head: [UInt8]) -> String {
        let prefix = head.prefix(12)
        if prefix.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            let text = String(decoding: prefix, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
            return "text \"\(text)\(head.count > 12 ? "…" : "")\""
        }
        return "bytes " + prefix.map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
