import Foundation

/// One run as the registry holds it (a row of `runs`).
public struct RunRecord: Equatable, Sendable {
    public enum Status: String, CaseIterable, Sendable { case running, finished, failed, interrupted }

    public var id: String
    public var experiment: String
    public var status: Status
    public var stopReason: String?
    public var runFolder: String?
    public var configYAML: String?
    public var gitCommit: String?
    public var dataset: String?
    public var trainSplit: String?
    public var valSplit: String?
    public var testSplit: String?
    public var startedAt: String?
    public var finishedAt: String?
    public var host: String?
    public var pid: Int?
    /// Processes of a data-parallel run and their hosts (nil: one process, on `host`).
    public var ranks: Int?
    public var hosts: [String]?
    public var epochsPlanned: Int?
    public var epochsDone = 0
    public var bestEpoch: Int?
    public var bestValMAP50: Double?
    public var val = SplitMeans()
    public var test = SplitMeans()
    public var imagesPerSecond: Double?
    public var seconds: Double?
    /// Values of its row that could not be read (a hand edit: text in a number column, a pid no
    /// process can have), each naming its column; those fields read as empty.
    public var problems: [String] = []

    public struct SplitMeans: Equatable, Sendable {
        public var map50: Double?
        public var mapCenter: Double?
        public var weightedMAP50: Double?
        public init(map50: Double? = nil, mapCenter: Double? = nil, weightedMAP50: Double? = nil) {
            self.map50 = map50; self.mapCenter = mapCenter; self.weightedMAP50 = weightedMAP50
        }
    }

    public init(id: String, experiment: String, status: Status) {
        self.id = id; self.experiment = experiment; self.status = status
    }
}

/// One row of `epochs` with its loss terms (`epoch_losses`); `epoch` is 1-based as in metrics.csv.
public struct EpochRecord: Equatable, Sendable {
    public var epoch: Int
    public var losses: [String: Double]
    public var learningRate: Double?
    public var valMAP50: Double?
    public var valMAPCenter: Double?
    public var imagesPerSecond: Double?
    public var seconds: Double?

    public init(epoch: Int, losses: [String: Double], learningRate: Double?, valMAP50: Double?, valMAPCenter: Double?,
                imagesPerSecond: Double?, seconds: Double?) {
        self.epoch = epoch; self.losses = losses; self.learningRate = learningRate; self.valMAP50 = valMAP50
        self.valMAPCenter = valMAPCenter; self.imagesPerSecond = imagesPerSecond; self.seconds = seconds
    }
}

/// Final metrics of one class on one split (`class_results`): P/R/F1 at `threshold`, the
/// confidence in force when that split's report was made (picked on val; applied on test).
public struct ClassResultRecord: Equatable, Sendable {
    public var split: String
    public var classIndex: Int
    public var className: String
    public var groundTruth: Int
    public var ap50: Double?
    public var apCenter: Double?
    public var threshold: Double?
    public var precision: Double?
    public var recall: Double?
    public var f1: Double?

    public init(split: String, classIndex: Int, className: String, groundTruth: Int, ap50: Double?, apCenter: Double?,
                threshold: Double? = nil, precision: Double? = nil, recall: Double? = nil, f1: Double? = nil) {
        self.split = split; self.classIndex = classIndex; self.className = className; self.groundTruth = groundTruth
        self.ap50 = ap50; self.apCenter = apCenter; self.threshold = threshold; self.precision = precision; self.recall = recall; self.f1 = f1
    }
}

/// The run's current per-class confidence (`thresholds`), with P/R/F1 on the split it was picked on.
public struct ThresholdRecord: Equatable, Sendable {
    public var classIndex: Int
    public var className: String
    public var confidence: Double?
    public var precision: Double?
    public var recall: Double?
    public var f1: Double?
    public var strategy: String
    public var pickedOn: String?
    public var pickedAt: String

    public init(classIndex: Int, className: String, confidence: Double?, precision: Double?, recall: Double?, f1: Double?,
                strategy: String, pickedOn: String?, pickedAt: String = RunRegistry.timestamp()) {
        self.classIndex = classIndex; self.className = className; self.confidence = confidence; self.precision = precision
        self.recall = recall; self.f1 = f1; self.strategy = strategy; self.pickedOn = pickedOn; self.pickedAt = pickedAt
    }
}

/// A file a run produced (`artifacts`): kind is report, weights, thresholds, summary, metrics, plot or preview.
public struct ArtifactRecord: Equatable, Sendable {
    public var kind: String
    public var name: String
    public var path: String
    public init(kind: String, name: String, path: String) { self.kind = kind; self.name = name; self.path = path }
}

/// Everything a finished (or stopped) run leaves: written in one transaction, so a reader never
/// sees half of it.
public struct RunResults: Equatable, Sendable {
    public var run: RunRecord
    public var epochs: [EpochRecord]
    public var classResults: [ClassResultRecord]
    public var thresholds: [ThresholdRecord]
    public var artifacts: [ArtifactRecord]

    public init(run: RunRecord, epochs: [EpochRecord] = [], classResults: [ClassResultRecord] = [],
                thresholds: [ThresholdRecord] = [], artifacts: [ArtifactRecord] = []) {
        self.run = run; self.epochs = epochs; self.classResults = classResults; self.thresholds = thresholds; self.artifacts = artifacts
    }
}
