import Foundation

/// The one in-memory dataset model every reader fills and every writer, checker,
/// sampler and evaluator reads.
public struct Dataset: Equatable {
    /// Folder that relative image paths are resolved against.
    public var root: URL
    /// Class names in index order.
    public var classes: [String]
    public var samples: [Sample]
    /// Split name ("train", "val", "test", ...) → indices into `samples`.
    public var splits: [String: [Int]]

    public init(root: URL, classes: [String], samples: [Sample] = [], splits: [String: [Int]] = [:]) {
        self.root = root
        self.classes = classes
        self.samples = samples
        self.splits = splits
    }

    public func imageURL(of sample: Sample) -> URL {
        sample.imagePath.hasPrefix("/") ? URL(fileURLWithPath: sample.imagePath)
            : root.appendingPathComponent(sample.imagePath)
    }

    /// Samples of one split, or all samples when `split` is nil.
    public func samples(inSplit split: String?) throws -> [Sample] {
        guard let split else { return samples }
        guard let indices = splits[split] else {
            throw DatasetError.unknownSplit(split, available: splits.keys.sorted())
        }
        return indices.map { samples[$0] }
    }

    /// A dataset holding only one split's samples (and that split as "all").
    public func subset(split: String) throws -> Dataset {
        let chosen = try samples(inSplit: split)
        return Dataset(root: root, classes: classes, samples: chosen, splits: [split: Array(chosen.indices)])
    }
}

public enum DatasetError: Error, CustomStringConvertible {
    case unknownSplit(String, available: [String])
    case unreadable(file: String, line: Int?, reason: String)

    public var description: String {
        switch self {
        case let .unknownSplit(name, available):
            return "unknown split '\(name)'; this dataset has: \(available.isEmpty ? "(none)" : available.joined(separator: ", "))"
        case let .unreadable(file, line, reason):
            return "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)"
        }
    }
}
