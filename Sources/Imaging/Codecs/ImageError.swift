/// Why an image file could not be read or written: names the file, says what is wrong and
/// what to do about it.
public struct ImageError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// No file at the path.
        case missing
        /// The file has zero bytes.
        case empty
        /// The data stops before the image is complete (interrupted download or copy).
        case truncated
        /// The first bytes are neither PNG nor JPEG.
        case notAnImage
        /// A real image format or variant that ScreenLab does not decode (GIF, WebP, huge sizes…).
        case unsupported
        /// The PNG/JPEG decoder rejected the data (corrupt stream, bad CRC…).
        case corrupt
        /// Encoding or writing failed.
        case writeFailed
        /// The path is not a readable regular file: a folder, a FIFO, a device, a link loop, no permission.
        case unreadable
    }

    /// The file path, or the name passed to `ImageIO.decode(_:name:)`.
    public let file: String
    public let kind: Kind
    /// Specifics: the decoder's message, the bytes seen, the unsupported feature.
    public let detail: String

    public init(file: String, kind: Kind, detail: String) {
        self.file = file
        self.kind = kind
        self.detail = detail
    }

    public var description: String {
        "\(file): \(summary)\(detail.isEmpty ? "" : " (\(detail))") — \(advice)"
    }

    private var summary: String {
        switch kind {
        case .missing: return "image file not found"
        case .empty: return "image file is empty (0 bytes)"
        case .truncated: return "image is truncated"
        case .notAnImage: return "not an image (the first bytes are not PNG or JPEG magic bytes)"
        case .unsupported: return "unsupported image"
        case .corrupt: return "corrupt image data"
        case .writeFailed: return "could not write image"
        case .unreadable: return "cannot read the image file"
        }
    }

    private var advice: String {
        switch kind {
        case .missing: return "check the path (relative paths are resolved against the dataset root) or remove the sample"
        case .empty, .truncated: return "re-download or re-export the file, or remove the sample from the dataset"
        case .notAnImage: return "the file is not a PNG or JPEG whatever its extension says; replace it or remove the sample"
        case .unsupported: return "convert it to 8-bit PNG or baseline JPEG (e.g. `convert in.gif out.png`)"
        case .corrupt: return "re-export the file with another tool, or remove the sample from the dataset"
        case .writeFailed: return "check the folder exists, is writable and the disk is not full"
        case .unreadable: return "give a readable PNG or JPEG file, or remove the sample"
        }
    }
}
