import Data
import Foundation
import Support

/// Predictions read from a COCO results file, with what was skipped under `--lenient`.
public struct PredictionSet: Equatable {
    public var predictions: [PredictedBox]
    /// Entries read from the file (kept + skipped).
    public var entries: Int
    /// Reason → number of entries skipped for it (empty unless lenient).
    public var skipped: [String: Int]
    /// How ids were interpreted and what was left aside (detections on images outside the split), for the report.
    public var notes: [String]
    /// Entries on images of the dataset outside the evaluated split (dropped, not errors).
    public var outsideSplit: Int = 0

    public var skippedCount: Int { skipped.values.reduce(0, +) }
}

/// Reads `[{"image_id", "category_id", "bbox": [x, y, w, h], "score"}]`. `image_id` is the
/// COCO image id (a number) or a file name / sample id (a string); `category_id` the COCO
/// category id or the class name. Extra keys ("id", "area", "segmentation") are ignored.
public struct COCOResultsReader {
    let samples: [Sample]
    let classNames: [String]
    let cocoCategoryIDs: [Int]?
    /// Name of the evaluated split, when the dataset has images outside it (indices ≥ samples.count).
    let splitName: String?
    let hasOutsideImages: Bool
    private var imageByCOCOID: [Int: Int] = [:]
    private var imageByName: [String: Int] = [:]
    private var ambiguousNames: Set<String> = []
    private var classByCOCOID: [Int: Int] = [:]
    private var classByName: [String: Int] = [:]
    private var classByLowercasedName: [String: Int] = [:]

    /// `cocoImageIDs[i]` is sample i's COCO image id, when the dataset came from COCO.
    /// `outsideSplit` are the dataset's other images when `samples` is one split (`splitName`): a
    /// file that covers the whole dataset can then be scored on one split, its other entries dropped.
    public init(samples: [Sample], cocoImageIDs: [Int?], classNames: [String], cocoCategoryIDs: [Int]?,
                outsideSplit: [Sample] = [], splitName: String? = nil) {
        self.samples = samples
        self.classNames = classNames
        self.cocoCategoryIDs = cocoCategoryIDs
        self.splitName = splitName
        hasOutsideImages = !outsideSplit.isEmpty
        let ids = cocoImageIDs + outsideSplit.map(\.cocoImageID)
        for (index, id) in ids.enumerated() { if let id { imageByCOCOID[id] = index } }
        for (index, sample) in (samples + outsideSplit).enumerated() {
            let file = (sample.imagePath as NSString).lastPathComponent
            let stem = (file as NSString).deletingPathExtension
            for key in Set([sample.id, sample.imagePath, file, stem]) where !key.isEmpty {
                if let other = imageByName[key], other != index { ambiguousNames.insert(key) } else { imageByName[key] = index }
            }
        }
        for (index, id) in (cocoCategoryIDs ?? []).enumerated() { classByCOCOID[id] = index }
        for (index, name) in classNames.enumerated() {
            classByName[name] = index
            classByLowercasedName[name.lowercased()] = index
        }
    }

    /// Results files are read whole; beyond this they are not detections of a dataset.
    public static let maximumFileBytes = 4 << 30

    public func read(_ url: URL, lenient: Bool) throws -> PredictionSet {
        let bytes: [UInt8]
        do { bytes = try ReadableFile.contents(of: url, maximumBytes: Self.maximumFileBytes) } catch let error as FileReadError {
            throw EvaluationError.badPredictionFile(file: url.path, reason: "cannot read: \(error.reason)")
        }
        return try bytes.withUnsafeBytes { try parse($0, file: url.path, lenient: lenient) }
    }

    public func parse(_ data: Data, file: String, lenient: Bool) throws -> PredictionSet {
        try data.withUnsafeBytes { try parse($0, file: file, lenient: lenient) }
    }

    /// Walks the top-level array itself: plain entries take the byte scanner
    /// (ResultsEntryScanner.swift), the rest the general parser.
    private func parse(_ bytes: UnsafeRawBufferPointer, file: String, lenient: Bool) throws -> PredictionSet {
        var parser = JSONParser(bytes: bytes, options: .python)
        func syntax<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch let error as JSONSyntaxError {
                throw EvaluationError.badPredictionFile(file: file, reason: "not valid JSON: \(error)")
            }
        }
        parser.skipWhitespace()
        guard parser.peek == UInt8(ascii: "[") else {
            _ = try syntax { try JSONParser.parse(bytes, options: .python) }  // a syntax error names its line; valid JSON is the wrong shape
            throw EvaluationError.badPredictionFile(file: file, reason: "expected a JSON array of {\"image_id\", \"category_id\", \"bbox\", \"score\"} objects (COCO results format)")
        }
        parser.position += 1
        var predictions: [PredictedBox] = []
        predictions.reserveCapacity(bytes.count / 80)
        var skipped: [String: Int] = [:]
        var usedNumericClassIndex = false
        var outside = 0
        var index = 0
        parser.skipWhitespace()
        var more = parser.peek != UInt8(ascii: "]")
        if !more { parser.position += 1 }
        while more {
            parser.skipWhitespace()
            let start = parser.position
            let fast = parser.resultsEntry()
            let entry: JSONValue?
            if let fast, fast.isValid { entry = nil } else {
                parser.position = start
                entry = try syntax { try parser.parseValue(depth: 1) }
            }
            do {
                let (prediction, numericIndex) = try entry.map(decode) ?? decode(fast!)
                usedNumericClassIndex = usedNumericClassIndex || numericIndex
                if prediction.imageIndex < samples.count { predictions.append(prediction) } else { outside += 1 }
            } catch let problem as EntryProblem {
                guard lenient else { throw EvaluationError.badPrediction(file: file, entry: index, reason: problem.message) }
                skipped[problem.kind, default: 0] += 1
            }
            index += 1
            more = try syntax { try parser.arrayContinues() }
        }
        try syntax { try parser.expectEnd() }
        let entries = index
        var notes: [String] = []
        if usedNumericClassIndex {
            notes.append("numeric category_id values were read as 0-based class indices (the dataset has no COCO category ids)")
        }
        if outside > 0 {
            notes.append("\(outside) detection\(outside == 1 ? "" : "s") on images outside split '\(splitName ?? "?")' ignored")
        }
        return PredictionSet(predictions: predictions, entries: entries, skipped: skipped, notes: notes, outsideSplit: outside)
    }

    struct EntryProblem: Error {
        /// Short, countable reason ("unknown image").
        let kind: String
        let message: String
    }

    /// An entry the fast path read (already checked to be finite with non-negative size).
    private func decode(_ entry: ResultsEntry) throws -> (PredictedBox, Bool) {
        let image = try resolveImage(entry.imageID)
        let (classIndex, numericIndex) = try resolveClass(entry.categoryID)
        try checkScoreRange(entry.score)
        let b = entry.box
        return (PredictedBox(imageIndex: image, classIndex: classIndex, box: BoundingBox(x: b.x, y: b.y, width: b.width, height: b.height),
                             score: entry.score), numericIndex)
    }

    private func decode(_ entry: JSONValue) throws -> (PredictedBox, Bool) {
        guard case .object = entry else {
            throw EntryProblem(kind: "not an object", message: "expected an object with image_id, category_id, bbox and score")
        }
        for key in ["image_id", "category_id", "bbox", "score"] where entry[key] == nil {
            throw EntryProblem(kind: "missing key", message: "missing key \"\(key)\"")
        }
        let image = try resolveImage(entry["image_id"]!)
        let (classIndex, numericIndex) = try resolveClass(entry["category_id"]!)
        let bbox = entry["bbox"]!
        guard case .array(let values) = bbox, values.count == 4 else {
            throw EntryProblem(kind: "bad bbox", message: "bbox must be [x, y, width, height], got \(bbox.shortDescription)")
        }
        let numbers = values.compactMap(\.doubleValue)
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
            throw EntryProblem(kind: "bad bbox", message: "bbox must hold four finite numbers, got \(bbox.shortDescription)")
        }
        guard numbers[2] >= 0, numbers[3] >= 0 else {
            throw EntryProblem(kind: "negative size", message: "bbox has a negative size (width \(numbers[2]), height \(numbers[3]))")
        }
        guard let score = entry["score"]!.doubleValue, score.isFinite else {
            throw EntryProblem(kind: "bad score", message: "score must be a finite number, got \(entry["score"]!.shortDescription)")
        }
        try checkScoreRange(score)
        let box = BoundingBox(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        return (PredictedBox(imageIndex: image, classIndex: classIndex, box: box, score: score), numericIndex)
    }

    /// Scores are confidences: thresholds picked from them are checked to lie in [0, 1] (and
    /// weights files store them as such), so a logit of 2.5 is refused here rather than becoming
    /// a threshold that no later reader accepts.
    private func checkScoreRange(_ score: Double) throws {
        guard (0...1).contains(score) else {
            throw EntryProblem(kind: "score out of range", message: "score must be a confidence in [0, 1], got \(score) (apply a sigmoid to logits)")
        }
    }

    private func resolveImage(_ value: JSONValue) throws -> Int {
        if case .string(let text) = value {
            if ambiguousNames.contains(text) {
                throw EntryProblem(kind: "ambiguous image", message: "image_id \"\(text)\" names more than one image; use the relative image path or the COCO id")
            }
            if let index = imageByName[text] { return index }
            if let id = Int(text), let index = imageByCOCOID[id] { return index }
            throw EntryProblem(kind: "unknown image", message: "image_id \"\(text)\" is not an image of \(scope) (matched against file names, paths and sample ids)")
        }
        if let id = value.intValue {
            if let index = imageByCOCOID[id] { return index }
            let hint = imageByCOCOID.isEmpty ? "; this dataset has no COCO image ids, so use file names as image_id" : ""
            throw EntryProblem(kind: "unknown image", message: "image_id \(id) is not an image of \(scope)\(hint)")
        }
        throw EntryProblem(kind: "unknown image", message: "image_id must be a COCO id or a file name, got \(value.shortDescription)")
    }

    private var scope: String { hasOutsideImages ? "the dataset (any split)" : "the evaluated images" }

    private func resolveClass(_ value: JSONValue) throws -> (Int, Bool) {
        if case .string(let text) = value {
            if let index = classByName[text] ?? classByLowercasedName[text.lowercased()] { return (index, false) }
            throw EntryProblem(kind: "unknown class", message: "category_id \"\(text)\" is not a class of this dataset (\(classNames.joined(separator: ", ")))")
        }
        if let id = value.intValue {
            if cocoCategoryIDs != nil {
                if let index = classByCOCOID[id] { return (index, false) }
                let known = (cocoCategoryIDs ?? []).map(String.init).joined(separator: ", ")
                throw EntryProblem(kind: "unknown class", message: "category_id \(id) is not a category of this dataset (ids: \(known))")
            }
            if (0..<classNames.count).contains(id) { return (id, true) }
            throw EntryProblem(kind: "unknown class", message: "category_id \(id) is not a class index 0..\(classNames.count - 1); use class names")
        }
        throw EntryProblem(kind: "unknown class", message: "category_id must be a COCO category id or a class name, got \(value.shortDescription)")
    }
}
