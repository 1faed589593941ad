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
    /// COCO category id of each class (same order as `classes`) when read from COCO, so
    /// predictions written back refer to the source's ids.
    public var cocoCategoryIDs: [Int]?
    /// What a reader changed or skipped on the way in (e.g. "skipped 3 iscrowd annotations"),
    /// for commands to print; empty when the source was taken as is.
    public var notes: [String]

    public init(root: URL, classes: [String], samples: [Sample] = [], splits: [String: [Int]] = [:],
                cocoCategoryIDs: [Int]? = nil, notes: [String] = []) {
        self.root = root
        self.classes = classes
        self.samples = samples
        self.splits = splits
        self.cocoCategoryIDs = cocoCategoryIDs
        self.notes = notes
    }

    /// Split names in the conventional order (train, val, test, then the rest alphabetically).
    public var orderedSplitNames: [String] {
        let conventional = ["train", "val", "valid", "validation", "test"]
        let known = conventional.filter { splits[$0] != nil }
        return known + splits.keys.filter { !conventional.contains($0) }.sorted()
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

    /// The dataset without the samples at `indices`; split lists are renumbered to match.
    public func removingSamples(_ indices: Set<Int>) -> Dataset {
        guard !indices.isEmpty else { return self }
        var newIndex = [Int?](repeating: nil, count: samples.count)
        var kept: [Sample] = []
        for (index, sample) in samples.enumerated() where !indices.contains(index) {
            newIndex[index] = kept.count
            kept.append(sample)
        }
        var result = self
        result.samples = kept
        result.splits = splits.mapValues { $0.compactMap { newIndex[$0] } }
        return result
    }

    /// The samples whose manifest metadata holds every `key=value` condition, as (kept, the rest).
    /// A key no sample has is an error that lists the keys there are: a misspelt column must not
    /// give an empty or a silently unfiltered evaluation.
    public func partitioned(where conditions: [(key: String, value: String)]) throws -> (kept: [Sample], rest: [Sample]) {
        let keys = Set(samples.flatMap { $0.metadata?.keys.map { $0 } ?? [] })
        for condition in conditions where !keys.contains(condition.key) {
            throw DatasetError.unknownMetadata(condition.key, available: keys.sorted())
        }
        var kept: [Sample] = [], rest: [Sample] = []
        for sample in samples {
            if conditions.allSatisfy({ sample.metadata?[$0.key] == $0.value }) { kept.append(sample) } else { rest.append(sample) }
        }
        return (kept, rest)
    }

    /// A dataset holding only one split's samples (and that split as "all").
    public func subset(split: String) throws -> Dataset {
        let chosen = try samples(inSplit: split)
        return Dataset(root: root, classes: classes, samples: chosen, splits: [split: Array(chosen.indices)],
                       cocoCategoryIDs: cocoCategoryIDs, notes: notes)
    }
}

public enum DatasetError: Error, CustomStringConvertible {
    case unknownSplit(String, available: [String])
    case unreadable(file: String, line: Int?, reason: String)
    case unknownMetadata(String, available: [String])

    public var description: String {
        switch self {
        case let .unknownSplit(name, available):
            return "unknown split '\(name)'; this dataset has: \(available.isEmpty ? "(none)" : available.joined(separator: ", "))"
        case let .unknownMetadata(key, available):
            return "no image has a '\(key)' column in the dataset's manifest.tsv; "
                + (available.isEmpty ? "its manifest has no columns beyond image, width, height and group" : "the columns are: \(available.joined(separator: ", "))")
        case let .unreadable(file, line, reason):
            return "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)"
        }
    }
}
