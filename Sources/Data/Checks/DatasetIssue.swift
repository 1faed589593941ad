/// One problem found in a dataset, with the file (and line) a user has to look at.
/// Readers collect these in lenient mode (`data check`) and throw the first one otherwise.
public struct DatasetIssue: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, CaseIterable, Comparable {
        case missingImage = "missing image"
        case unreadableImage = "unreadable image"
        case truncatedImage = "truncated image"
        case imageSizeMismatch = "image size mismatch"
        case malformedLine = "malformed label line"
        case unknownClass = "unknown class"
        case boxOutsideImage = "box outside image"
        case zeroAreaBox = "box with no area"
        case duplicateImage = "duplicate image"
        case imageInTwoSplits = "image in two splits"
        case duplicateListEntry = "image listed twice in a split"
        case orphanLabel = "label without image"
        case manifestMismatch = "manifest size mismatch"
        case invalidAnnotation = "invalid annotation"

        public static func < (a: Kind, b: Kind) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public var kind: Kind
    public var file: String
    public var line: Int?
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(kind.rawValue): \(message)" }

    /// The same problem as an error for strict readers.
    var asError: DatasetError { .unreadable(file: file, line: line, reason: "\(kind.rawValue): \(message)") }
}

/// Where an annotation came from: the label file and line (YOLO) or the annotation id (COCO).
public struct AnnotationSource: Equatable {
    public var file: String
    public var line: Int?
    public var annotationID: Int?

    public init(file: String, line: Int? = nil, annotationID: Int? = nil) {
        self.file = file
        self.line = line
        self.annotationID = annotationID
    }
}

/// Where a reader sends the problems it finds: strict readers throw the first one, lenient
/// readers (used by `data check`) collect them all and keep going, and also record where each
/// annotation came from so later checks (box outside the image, ...) can name file and line.
public final class IssueCollector {
    public let strict: Bool
    public private(set) var issues: [DatasetIssue] = []
    /// Sample image path → the source of each of its annotations, in order (lenient mode only).
    public var annotationSources: [String: [AnnotationSource]] = [:]

    /// Records sources only in lenient mode: strict loads (training) need not pay for them.
    func recordSources(_ sources: @autoclosure () -> [AnnotationSource], forImage imagePath: String) {
        if !strict { annotationSources[imagePath] = sources() }
    }

    public init(strict: Bool) { self.strict = strict }

    public func report(_ issue: DatasetIssue) throws {
        if strict { throw issue.asError }
        issues.append(issue)
    }
}
