import Foundation
import Support

/// Header-only size reading: PNG IHDR at a fixed offset, JPEG SOF found by hopping over
/// marker segments (EXIF thumbnails can put it tens of KB in), reading only segment heads and the
/// EXIF segment (its orientation exchanges width and height for turned photos, as decoding does).
enum ImageHeader {
    static func readSize(_ url: URL) throws -> (width: Int, height: Int) {
        try withReader(url) { read, _ in
            let head = try read(0, 24)
            switch try ImageIO.sniff(head, name: url.path) {
            case .png: return try pngSize(head, name: url.path)
            case .jpeg: return try jpegSize(name: url.path, read: read)
            }
        }
    }

    /// Opens `url` for random-access reads of a few bytes at a time; `body` gets
    /// `read(offset, count)` (fewer bytes at the end of the file) and the file size.
    static func withReader<T>(_ url: URL, _ body: (_ read: (Int, Int) throws -> [UInt8], _ fileSize: Int) throws -> T) throws -> T {
        let file = try ImageFile.open(url)
        func read(_ offset: Int, _ count: Int) throws -> [UInt8] {
            do { return try file.read(offset: offset, count: count) } catch let error as FileReadError {
                throw ImageError(file: url.path, kind: .unreadable, detail: error.reason)
            }
        }
        return try body(read, file.size)
    }

    static func pngSize(_ head: [UInt8], name: String) throws -> (width: Int, height: Int) {
        guard head.count >= 24 else {
            throw ImageError(file: name, kind: .truncated, detail: "file ends inside the PNG header (\(head.count) bytes)")
        }
        guard String(decoding: head[12..<16], as: UTF8.self) == "IHDR" else {
            throw ImageError(file: name, kind: .corrupt, detail: "first PNG chunk is not IHDR")
        }
        let width = bigEndian32(head, 16), height = bigEndian32(head, 20)
        try ImageLimits.check(width: width, height: height, name: name)
        return (width, height)
    }

    static func jpegSize(name: String, read: (Int, Int) throws -> [UInt8]) throws -> (width: Int, height: Int) {
        var size: (width: Int, height: Int)?
        var orientation: EXIFOrientation?
        let end = try JPEGMarkers.walk(read: read) { segment in
            // EXIF (APP1) comes before the frame header: the size reported is the shown picture's.
            // The first EXIF segment counts, as in decoding.
            if orientation == nil, segment.marker == 0xE1 {
                orientation = EXIFOrientation.parse(app1: try read(segment.payloadOffset, segment.payloadLength))
            }
            guard JPEGMarkers.isStartOfFrame(segment.marker) else { return true }
            // SOF payload: precision (1), height (2), width (2), components…
            let payload = try read(segment.payloadOffset, 5)
            guard payload.count == 5 else { return false }
            size = (Int(payload[3]) << 8 | Int(payload[4]), Int(payload[1]) << 8 | Int(payload[2]))
            return false
        }
        if let size {
            try ImageLimits.check(width: size.width, height: size.height, name: name)
            return orientation?.exchangesSides == true ? (size.height, size.width) : size
        }
        switch end {
        case .endOfData, .stopped:
            throw ImageError(file: name, kind: .truncated, detail: "file ends before the JPEG frame header (SOF)")
        case .scanStart:
            throw ImageError(file: name, kind: .corrupt, detail: "no JPEG frame header (SOF) before the image data")
        case .badMarker(let offset):
            throw ImageError(file: name, kind: .corrupt, detail: "expected a JPEG marker at byte \(offset)")
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}
