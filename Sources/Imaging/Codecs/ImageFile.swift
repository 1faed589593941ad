import Foundation
import Support

/// Opens an image file through Support's `ReadableFile`, the one way ScreenLab opens inputs:
/// a regular file only (a FIFO named like an image in a YOLO folder used to block forever),
/// at most `maximumBytes`, with the kind of thing found named in the error.
enum ImageFile {
    /// Far above any screenshot; a bigger "image" is not one ScreenLab decodes.
    static let maximumBytes = 512 << 20

    static func open(_ url: URL) throws -> ReadableFile {
        do { return try ReadableFile(url, maximumBytes: maximumBytes) } catch let error as FileReadError {
            switch error.kind {
            case .notFound: throw ImageError(file: url.path, kind: .missing, detail: "")
            case .isDirectory: throw ImageError(file: url.path, kind: .notAnImage, detail: "it is a folder")
            default: throw ImageError(file: url.path, kind: .unreadable, detail: error.reason)
            }
        }
    }
}
