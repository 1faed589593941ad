/// Walks JPEG marker segments without decoding: finds the frame size (SOF) for header-only
/// size checks and the Adobe APP14 marker that tells how CMYK samples are stored.
enum JPEGMarkers {
    struct Segment {
        let marker: UInt8
        /// Offset of the segment's payload (after the 2-byte length).
        let payloadOffset: Int
        let payloadLength: Int
    }

    /// Calls `visit` for each segment from SOI up to SOS/EOI; `visit` returns false to stop.
    /// `read(offset, count)` returns up to `count` bytes (fewer at the end of the data).
    static func walk(read: (Int, Int) throws -> [UInt8], visit: (Segment) throws -> Bool) throws -> WalkEnd {
        var offset = 2  // after SOI (FF D8)
        while true {
            let head = try read(offset, 4)
            guard head.count >= 2 else { return .endOfData }
            guard head[0] == 0xFF else { return .badMarker(offset: offset) }
            let marker = head[1]
            if marker == 0xFF { offset += 1; continue }  // fill byte before a marker
            if marker == 0xD9 || marker == 0xDA { return .scanStart }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }  // no payload
            guard head.count == 4 else { return .endOfData }
            let length = Int(head[2]) << 8 | Int(head[3])
            guard length >= 2 else { return .badMarker(offset: offset) }
            let segment = Segment(marker: marker, payloadOffset: offset + 4, payloadLength: length - 2)
            if try !visit(segment) { return .stopped }
            offset += 2 + length
        }
    }

    enum WalkEnd: Equatable { case stopped, scanStart, endOfData, badMarker(offset: Int) }

    /// SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    static func hasAdobeMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var found = false
        _ = try? walk(read: { offset, count in slice(bytes, offset, count) }) { segment in
            if segment.marker == 0xEE, segment.payloadLength >= 5,
               slice(bytes, segment.payloadOffset, 5) == Array("Adobe".utf8) {
                found = true
                return false
            }
            return true
        }
        return found
    }

    /// The EXIF orientation from the first APP1 "Exif" segment before the image data.
    static func orientation(read: (Int, Int) throws -> [UInt8]) -> EXIFOrientation {
        var found = EXIFOrientation.normal
        _ = try? walk(read: read) { segment in
            guard segment.marker == 0xE1, let parsed = EXIFOrientation.parse(app1: try read(segment.payloadOffset, segment.payloadLength)) else {
                return true
            }
            found = parsed
            return false
        }
        return found
    }

    static func slice(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> [UInt8] {
        guard offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
}
