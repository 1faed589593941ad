import Foundation

/// A weights format version. Minor versions only add fields that older readers skip; a new
/// major version changes the layout and older readers refuse it.
public struct FormatVersion: Comparable, Hashable, CustomStringConvertible, Sendable {
    public var major: UInt16
    public var minor: UInt16

    public init(_ major: UInt16, _ minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    /// 1.0: the first release. 1.1: adds the optional `training` header field. 1.2: adds
    /// float16 tensor storage.
    public static let v1_0 = FormatVersion(1, 0)
    public static let v1_1 = FormatVersion(1, 1)
    public static let v1_2 = FormatVersion(1, 2)
    /// The newest version this code reads and writes.
    public static let current = v1_2

    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: FormatVersion, rhs: FormatVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}

/// Everything needed to use the weights without the training config.
public struct WeightsHeader: Equatable, Sendable {
    public var architecture: ModelArchitecture
    public var input: InputSpec
    public var normalization: InputNormalization
    /// Class names in the order of the model's class outputs.
    public var classes: [String]
    /// Per-class confidence thresholds picked by `screenlab thresholds pick`, in class order;
    /// nil until picked. Classes without an entry use the caller's default confidence.
    public var thresholds: [ClassThreshold]?
    public var provenance: Provenance
    /// Format 1.1 and later.
    public var training: TrainingInfo?

    public init(architecture: ModelArchitecture, input: InputSpec, normalization: InputNormalization, classes: [String],
                thresholds: [ClassThreshold]? = nil, provenance: Provenance, training: TrainingInfo? = nil) {
        self.architecture = architecture
        self.input = input
        self.normalization = normalization
        self.classes = classes
        self.thresholds = thresholds
        self.provenance = provenance
        self.training = training
    }

    /// The oldest format version that holds every field set here (so older readers can load
    /// files that do not use newer fields).
    public var minimumFormatVersion: FormatVersion { training == nil ? .v1_0 : .v1_1 }

    /// The threshold of a class, if one was picked.
    public func threshold(forClass name: String) -> ClassThreshold? {
        thresholds?.first { $0.className == name }
    }

    /// The confidence threshold of every class, in class (output) order: the picked one, or
    /// `defaultConfidence` for classes without one (what `screenlab predict` applies).
    public func confidenceThresholds(default defaultConfidence: Double) -> [Double] {
        classes.map { threshold(forClass: $0)?.confidence ?? defaultConfidence }
    }
}

/// The model family and its size options, e.g. `reference-detector` with
/// `backbone: mobilenet_v1, width_multiplier: 0.5, fpn_channels: 64`.
public struct ModelArchitecture: Equatable, Sendable {
    public var name: String
    /// Options as text, sorted by key when written (so the file is deterministic).
    public var options: [String: String]

    public init(name: String, options: [String: String] = [:]) {
        self.name = name
        self.options = options
    }
}

/// The network input: images are resized to `width`×`height` with `channels` channels.
public struct InputSpec: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var channels: Int

    public init(width: Int, height: Int, channels: Int = 3) {
        self.width = width
        self.height = height
        self.channels = channels
    }
}

/// Per-channel `(pixel / 255 - mean) / std`, applied to RGB pixels before the network: the
/// same convention as Imaging's `PixelNormalization(mean:std:)` (Weights cannot depend on
/// Imaging, hence its own plain type; convert with the same two arrays).
public struct InputNormalization: Equatable, Sendable {
    public var mean: [Float]
    public var std: [Float]

    public init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }
}

/// One class's picked confidence threshold and its scores on the split it was picked on.
public struct ClassThreshold: Equatable, Sendable {
    public var className: String
    public var confidence: Double
    public var precision: Double
    public var recall: Double
    public var f1: Double
    public var split: String

    public init(className: String, confidence: Double, precision: Double, recall: Double, f1: Double, split: String) {
        self.className = className
        self.confidence = confidence
        self.precision = precision
        self.recall = recall
        self.f1 = f1
        self.split = split
    }
}

/// Where the weights came from. Optional fields are nil when unknown (e.g. imported weights).
public struct Provenance: Equatable, Sendable {
    public var runID: String?
    public var experiment: String?
    public var dataset: String?
    public var trainSplit: String?
    public var valSplit: String?
    public var testSplit: String?
    public var gitCommit: String?
    /// ISO 8601 UTC, e.g. `2026-11-22T08:00:00Z`.
    public var created: String
    public var valMAP50: Double?
    public var testMAP50: Double?

    /// `created` for a file written now: ISO 8601 UTC to the second, e.g. `2026-11-22T08:00:00Z`.
    public static func timestamp(_ date: Date = Date()) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    public init(runID: String? = nil, experiment: String? = nil, dataset: String? = nil, trainSplit: String? = nil,
                valSplit: String? = nil, testSplit: String? = nil, gitCommit: String? = nil, created: String,
                valMAP50: Double? = nil, testMAP50: Double? = nil) {
        self.runID = runID
        self.experiment = experiment
        self.dataset = dataset
        self.trainSplit = trainSplit
        self.valSplit = valSplit
        self.testSplit = testSplit
        self.gitCommit = gitCommit
        self.created = created
        self.valMAP50 = valMAP50
        self.testMAP50 = testMAP50
    }
}

/// How the run was trained (format 1.1): enough to reproduce it with the same code.
public struct TrainingInfo: Equatable, Sendable {
    public var seed: UInt64
    public var epochs: Int
    /// The training config's path as given to `screenlab train`.
    public var config: String?

    public init(seed: UInt64, epochs: Int, config: String? = nil) {
        self.seed = seed
        self.epochs = epochs
        self.config = config
    }
}
