import Foundation

/// The one entry point for "give me this dataset": every command and library that takes a
/// dataset on the command line goes through here.
public enum DatasetLoader {
    public enum Format: String {
        case config, yolo, coco
    }

    /// Loads `PATH[:SPLIT]` (see `DatasetReference`). With a split, the result holds only
    /// that split's samples (as the dataset's single split of that name).
    public static func load(_ reference: String) throws -> Dataset {
        try load(DatasetReference.parse(reference))
    }

    public static func load(_ reference: DatasetReference, showProgress: Bool = false) throws -> Dataset {
        let dataset = try loadAll(URL(fileURLWithPath: reference.path), issues: IssueCollector(strict: true), showProgress: showProgress)
        guard let split = reference.split else { return dataset }
        return try dataset.subset(split: split)
    }

    /// The whole dataset; lenient `issues` (as `data check` uses) collect problems instead of throwing.
    /// `useManifestSizes: false` opens every image header instead of trusting the sizes recorded
    /// in `manifest.tsv` or a COCO JSON.
    public static func loadAll(_ url: URL, issues: IssueCollector, showProgress: Bool = false,
                               useManifestSizes: Bool = true) throws -> Dataset {
        let options = YOLOReader.Options(useManifestSizes: useManifestSizes, showProgress: showProgress)
        switch try format(of: url) {
        case .yolo: return try YOLOReader.read(url, options: options, issues: issues)
        case .coco: return try COCOReader.read(url, issues: issues, checkImages: !useManifestSizes)
        case .config:
            let config = try DatasetConfig.read(url)
            return try config.load(options: options, issues: issues)
        }
    }

    public static func format(of url: URL) throws -> Format {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw DatasetError.unreadable(file: url.path, line: nil, reason: DatasetConfig.brokenLink(url.path)
                                            ?? "does not exist; give a dataset config (.yaml), a YOLO folder or a COCO .json")
        }
        if isDirectory.boolValue { return .yolo }
        switch url.pathExtension.lowercased() {
        case "yaml", "yml": return .config
        case "json": return .coco
        default:
            throw DatasetError.unreadable(file: url.path, line: nil,
                                          reason: "unknown dataset kind; give a dataset config (.yaml), a YOLO folder or a COCO .json")
        }
    }
}
