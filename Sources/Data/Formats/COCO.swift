import Foundation
import Support

/// COCO "instances" JSON (the object-detection subset): `images`, `annotations` with
/// `bbox: [x, y, width, height]` in pixels from the top-left corner, `categories` with ids.
///
/// Kept on the way through: image ids (`Sample.cocoImageID`) and category ids
/// (`Dataset.cocoCategoryIDs`, classes ordered by ascending id) so predictions can refer to
/// the source's ids. ScreenLab extensions, ignored by other COCO tools: `group` and `split`
/// on an image, `attributes: {selected, clickable}` on an annotation.
///
/// `iscrowd: 1` annotations are ignore-regions for crowds of objects; UI screens have no
/// crowds and the evaluator has no ignore-region logic, so they are skipped and counted in
/// `Dataset.notes` rather than silently becoming ordinary boxes.
///
/// Read by COCODecoding.swift, written with JSONEncoder.
struct COCOFile: Encodable {
    struct Image: Encodable {
        var id: Int
        var file_name: String
        var width: Int
        var height: Int
        var group: String?
        var split: String?
    }

    struct Attributes: Encodable {
        var selected: Bool?
        var clickable: Bool?
    }

    struct Annotation: Encodable {
        var id: Int
        var image_id: Int
        var category_id: Int
        var bbox: [Double]
        var area: Double?
        var iscrowd: Int?
        var attributes: Attributes?
    }

    struct Category: Encodable {
        var id: Int
        var name: String
        var supercategory: String?
    }

    var images: [Image]
    var annotations: [Annotation]
    var categories: [Category]
}

public enum COCOReader {
    /// `checkImages` (what `data check` uses) opens every image header: a missing or unreadable
    /// image leaves the dataset (its annotations with it), and a JSON width/height that
    /// disagrees with the header is reported and replaced by the header's size.
    public static func read(_ url: URL, issues: IssueCollector = IssueCollector(strict: true), checkImages: Bool = false) throws -> Dataset {
        try dataset(from: try decode(url), url: url, issues: issues, checkImages: checkImages)
    }

    /// The dataset a decoded file describes (`url` for messages and to find the images).
    static func dataset(from file: COCOFile, url: URL, issues: IssueCollector, checkImages: Bool) throws -> Dataset {
        let categories = file.categories.sorted { $0.id < $1.id }
        var classIndex: [Int: Int] = [:]
        for (index, category) in categories.enumerated() {
            guard classIndex[category.id] == nil else {
                throw DatasetError.unreadable(file: url.path, line: nil, reason: "category id \(category.id) appears twice")
            }
            classIndex[category.id] = index
        }
        try checkCategoryNames(categories, file: url.path)
        let root = imageRoot(for: url, firstImage: file.images.first?.file_name)
        var dataset = Dataset(root: root, classes: categories.map(\.name), cocoCategoryIDs: categories.map(\.id))
        var sampleIndex: [Int: Int] = [:]
        var leftOutImages = Set<Int>()
        for image in file.images {
            guard sampleIndex[image.id] == nil, !leftOutImages.contains(image.id) else {
                throw DatasetError.unreadable(file: url.path, line: nil, reason: "image id \(image.id) appears twice")
            }
            guard ImageSizeLimits.contains(width: image.width, height: image.height) else {
                throw DatasetError.unreadable(file: url.path, line: nil, reason: "image id \(image.id) '\(image.file_name)' is \(image.width)x\(image.height); "
                                              + "width and height must lie in 1...\(ImageSizeLimits.maximumSide): correct the entry")
            }
            var sample = Sample(id: sampleID(fileName: image.file_name), imagePath: image.file_name, width: image.width, height: image.height,
                                group: image.group, cocoImageID: image.id)
            if checkImages {
                guard let size = try headerSize(of: image, in: dataset, json: url, issues: issues) else {
                    leftOutImages.insert(image.id)
                    continue
                }
                (sample.width, sample.height) = size
            }
            sampleIndex[image.id] = dataset.samples.count
            if let split = image.split { dataset.splits[split, default: []].append(dataset.samples.count) }
            dataset.samples.append(sample)
        }
        var crowdCount = 0
        var sources = [[AnnotationSource]](repeating: [], count: dataset.samples.count)
        for annotation in file.annotations {
            let place = "annotation id \(annotation.id)"
            if annotation.iscrowd == 1 { crowdCount += 1; continue }
            if leftOutImages.contains(annotation.image_id) { continue }  // its image was reported
            guard let sample = sampleIndex[annotation.image_id] else {
                try issues.report(DatasetIssue(.invalidAnnotation, file: url.path, "\(place): image_id \(annotation.image_id) is not in images"))
                continue
            }
            guard let index = classIndex[annotation.category_id] else {
                try issues.report(DatasetIssue(.unknownClass, file: url.path, "\(place): category_id \(annotation.category_id) is not in categories"))
                continue
            }
            guard annotation.bbox.count == 4, annotation.bbox.allSatisfy(\.isFinite) else {
                try issues.report(DatasetIssue(.invalidAnnotation, file: url.path, "\(place): bbox must be 4 finite numbers [x, y, width, height]"))
                continue
            }
            // A 1e308 box is no box on any image, and its YOLO line would be a 300-digit number.
            guard annotation.bbox.allSatisfy({ abs($0) <= maximumCoordinate }) else {
                try issues.report(DatasetIssue(.invalidAnnotation, file: url.path,
                                               "\(place): bbox \(annotation.bbox) lies beyond ±\(Int(maximumCoordinate)) px, far outside any image; fix or remove it"))
                continue
            }
            let b = annotation.bbox
            sources[sample].append(AnnotationSource(file: url.path, annotationID: annotation.id))
            dataset.samples[sample].annotations.append(Annotation(
                classIndex: index, box: BoundingBox(x: b[0], y: b[1], width: b[2], height: b[3]),
                selected: annotation.attributes?.selected, clickable: annotation.attributes?.clickable))
        }
        for (sample, list) in zip(dataset.samples, sources) { issues.recordSources(list, forImage: sample.imagePath) }
        if crowdCount > 0 {
            dataset.notes.append("\(url.lastPathComponent): skipped \(crowdCount) iscrowd annotations (crowd ignore-regions are not used for UI screens)")
        }
        return dataset
    }

    /// Box coordinates beyond this many pixels are broken values (images are at most 65,536 px).
    static let maximumCoordinate = 1e7

    /// Predictions and mappings refer to classes by name: two categories of one name would
    /// send every prediction of that name to one of them, and a name with a line break would
    /// split into two lines of classes.txt.
    static func checkCategoryNames(_ categories: [COCOFile.Category], file: String) throws {
        var idByName: [String: Int] = [:]
        for category in categories {
            if category.name.isEmpty || category.name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                throw DatasetError.unreadable(file: file, line: nil, reason: "category id \(category.id) name \(String(reflecting: category.name)) "
                                              + "is empty or has a line break or control character; rename it")
            }
            if let other = idByName[category.name] {
                throw DatasetError.unreadable(file: file, line: nil, reason: "categories \(other) and \(category.id) are both named '\(category.name)'; "
                                              + "class names must be unique (predictions and mappings refer to them by name): rename or merge them")
            }
            idByName[category.name] = category.id
        }
    }

    /// The image's size from its header, reporting a missing or unreadable image (nil) and a
    /// JSON width/height that disagrees, each naming the JSON and the image entry.
    static func headerSize(of image: COCOFile.Image, in dataset: Dataset, json: URL, issues: IssueCollector) throws -> (Int, Int)? {
        let entry = "image id \(image.id) '\(image.file_name)'"
        let imageURL = dataset.imageURL(of: Sample(id: "", imagePath: image.file_name, width: 0, height: 0))
        switch ImageSizeReader.size(of: imageURL) {
        case let .failure(problem):
            let what = problem.kind == .missingImage ? "\(imageURL.path) does not exist" : problem.message
            try issues.report(DatasetIssue(problem.kind, file: json.path, "\(entry): \(what)"))
            return nil
        case let .success(size):
            if size.width != image.width || size.height != image.height {
                try issues.report(DatasetIssue(.imageSizeMismatch, file: json.path,
                                               "\(entry) has width \(image.width), height \(image.height) but the image is \(size.width)x\(size.height); "
                                               + "boxes are checked against the image; correct the entry"))
            }
            return (size.width, size.height)
        }
    }

    /// The file name without extension and without the folders up to an `images/` folder, as
    /// YOLO ids are (`images/train/a.png` → `train/a`), so ids stay unique across subfolders.
    static func sampleID(fileName: String) -> String {
        var components = (fileName as NSString).deletingPathExtension.split(separator: "/", omittingEmptySubsequences: true)
        if let images = components.lastIndex(of: "images") { components.removeSubrange(...images) }
        return components.joined(separator: "/")
    }

    static func decode(_ url: URL) throws -> COCOFile {
        try COCOFile(json: try FileText.data(url), file: url.path)
    }

    /// `file_name` is relative to the JSON's folder; exports that keep the JSON in
    /// `annotations/` put the images in `../images/` (COCO itself) or `images/`.
    static func imageRoot(for url: URL, firstImage: String?) -> URL {
        let folder = url.deletingLastPathComponent().standardizedFileURL
        guard let firstImage, !firstImage.hasPrefix("/") else { return folder }
        let candidates = [folder, folder.appendingPathComponent("images"),
                          folder.deletingLastPathComponent().appendingPathComponent("images"), folder.deletingLastPathComponent()]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(firstImage).path) }?.standardizedFileURL ?? folder
    }
}

public enum COCOWriter {
    /// Writes the dataset as one JSON. `file_name` is each image's path relative to the JSON's
    /// folder (absolute when that is not possible), so the file reads back from where it is.
    public static func write(_ dataset: Dataset, to url: URL) throws {
        try AtomicFile.write(try encode(dataset, relativeTo: url.deletingLastPathComponent()), to: url)
    }

    /// Writes `annotations.json` into an output folder the caller commits; image paths are
    /// relative to the folder's final place.
    public static func write(_ dataset: Dataset, into folder: OutputFolder, fileName: String = "annotations.json") throws {
        try folder.write(try encode(dataset, relativeTo: folder.destination), to: fileName)
    }

    /// The JSON, with `file_name`s relative to `folder`.
    static func encode(_ dataset: Dataset, relativeTo folder: URL) throws -> Data {
        let folder = folder.standardizedFileURL
        let categoryIDs = dataset.cocoCategoryIDs.flatMap { $0.count == dataset.classes.count ? $0 : nil }
            ?? dataset.classes.indices.map { $0 + 1 }
        var splitOf: [Int: String] = [:]
        for name in dataset.splits.keys.sorted() { for index in dataset.splits[name]! where splitOf[index] == nil { splitOf[index] = name } }
        var file = COCOFile(images: [], annotations: [], categories: zip(categoryIDs, dataset.classes).map {
            COCOFile.Category(id: $0, name: $1, supercategory: nil)
        })
        var usedIDs = Set<Int>()
        // Nil when the largest id in use is Int.max (a file may hold any id): no new id is left.
        let largest = dataset.samples.compactMap(\.cocoImageID).max() ?? 0
        var nextID: Int? = largest == Int.max ? nil : largest + 1
        for (index, sample) in dataset.samples.enumerated() {
            let imageID: Int
            if let given = sample.cocoImageID { imageID = given } else {
                guard let next = nextID else {
                    throw DatasetError.unreadable(file: sample.imagePath, line: nil, reason: "no COCO image id is left above the largest one in use (\(Int.max)); renumber the images")
                }
                imageID = next
                nextID = next == Int.max ? nil : next + 1
            }
            guard usedIDs.insert(imageID).inserted else {
                throw DatasetError.unreadable(file: sample.imagePath, line: nil, reason: "COCO image id \(imageID) is used by two samples")
            }
            file.images.append(COCOFile.Image(id: imageID, file_name: relativePath(dataset.imageURL(of: sample), from: folder),
                                              width: sample.width, height: sample.height, group: sample.group, split: splitOf[index]))
            for annotation in sample.annotations {
                guard categoryIDs.indices.contains(annotation.classIndex) else {
                    throw DatasetError.unreadable(file: sample.imagePath, line: nil,
                                                  reason: "class index \(annotation.classIndex) but the dataset has \(dataset.classes.count) classes")
                }
                let b = annotation.box
                let attributes = annotation.selected == nil && annotation.clickable == nil ? nil
                    : COCOFile.Attributes(selected: annotation.selected, clickable: annotation.clickable)
                file.annotations.append(COCOFile.Annotation(
                    id: file.annotations.count + 1, image_id: imageID, category_id: categoryIDs[annotation.classIndex],
                    bbox: [b.x, b.y, b.width, b.height], area: b.area, iscrowd: 0, attributes: attributes))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(file)
    }

    /// `target` relative to `folder` with `../` steps, or absolute when they share nothing but `/`.
    static func relativePath(_ target: URL, from folder: URL) -> String {
        let targetParts = target.standardizedFileURL.pathComponents, folderParts = folder.standardizedFileURL.pathComponents
        var common = 0
        while common < min(targetParts.count, folderParts.count), targetParts[common] == folderParts[common] { common += 1 }
        guard common > 1 else { return target.standardizedFileURL.path }
        let ups = Array(repeating: "..", count: folderParts.count - common)
        return (ups + targetParts[common...]).joined(separator: "/")
    }
}
