import Foundation

/// A cheap test for files cut short (an interrupted download or copy) that reads only the
/// first and last bytes, as Ultralytics does before training: a JPEG must end with its
/// end-of-image marker `FF D9`, a PNG with its `IEND` chunk. A header read alone misses these
/// files; a full decode (`ImageIO.read`) finds them too but costs a hundred times more.
///
/// Bytes after the end marker are tolerated within the last `tailWindow` bytes (zero padding
/// from some exporters, short vendor trailers): `FF D9` cannot occur inside JPEG scan data
/// (an `FF` there is always followed by `00` or a restart marker), and the 12-byte IEND chunk
/// with its fixed CRC does not occur by chance, so a marker found there ends the image.
enum ImageCompleteness {
    static let tailWindow = 1024
    static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]  // length 0, "IEND", CRC
    static let jpegEnd: [UInt8] = [0xFF, 0xD9]

    static func check(_ url: URL) throws {
        try ImageHeader.withReader(url) { read, fileSize in
            let format = try ImageIO.sniff(try read(0, 16), name: url.path)
            let start = max(0, fileSize - tailWindow)
            let tail = try read(start, fileSize - start)
            let (end, what) = format == .png ? (pngEnd, "PNG has no IEND chunk at its end") : (jpegEnd, "JPEG does not end with the end-of-image marker FF D9")
            guard lastIndex(of: end, in: tail) == nil else { return }
            let last = tail.suffix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw ImageError(file: url.path, kind: .truncated, detail: "\(what); the \(fileSize)-byte file ends with \(last)")
        }
    }

    static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return stride(from: bytes.count - pattern.count, through: 0, by: -1).first { start in
            pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
        }
    }
}
