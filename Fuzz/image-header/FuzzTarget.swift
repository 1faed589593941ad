// libFuzzer entry point for the image header readers: `sh Fuzz/fuzz.sh image-header [runs] [seconds]`.
// Each input is sniffed (PNG / JPEG magic), its size read the way `data check` and the YOLO reader
// read it (PNG IHDR, JPEG SOF found by hopping over marker segments), checked for completeness
// (end marker in the last kilobyte), and, when small, fully decoded by libpng / TurboJPEG.
// Invariant: an accepted size is within the decoder's limits and agrees with the full decode.
import Foundation
@testable import Imaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    func read(_ offset: Int, _ count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
    guard let format = try? ImageIO.sniff(Array(bytes.prefix(24)), name: "fuzz") else { return 0 }
    let size: (width: Int, height: Int)?
    switch format {
    case .png: size = try? ImageHeader.pngSize(Array(bytes.prefix(24)), name: "fuzz.png")
    case .jpeg: size = try? ImageHeader.jpegSize(name: "fuzz.jpg", read: read)
    }
    if let size {
        precondition(size.width >= 1 && size.height >= 1 && size.width <= ImageLimits.maxSide && size.height <= ImageLimits.maxSide,
                     "header size \(size) outside the limits")
    }
    _ = ImageCompleteness.lastIndex(of: ImageCompleteness.jpegEnd, in: Array(bytes.suffix(ImageCompleteness.tailWindow)))
    if let image = try? ImageIO.decode(Data(bytes), name: "fuzz") {
        if let size { precondition(size == (image.width, image.height), "header says \(size), decoder \(image.width)x\(image.height)") }
    }
    return 0
}
