import Data
import Detection
import Foundation
import Training

/// The PyTorch peer of the real training step (Peers/torch-peer: ScreenLab's default
/// detector, ATSS, QFL / GIoU / DFL, clipping, AdamW, EMA), run through `PeerScript` so that
/// `bench train --real-peer` times both engines in the same rounds.
public struct RealTorchPeer {
    /// One layout's line of train_step_bench.py.
    public struct Measurement: Decodable, Equatable {
        public let layout: String
        public let batch: Int
        public let threads: Int
        public let classes: Int
        public let parameters: Int
        public let boxesPerImage: Int
        public let positivesPerImage: Double
        public let steps: Int
        public let medianSeconds: Double
        public let imagesPerSecond: Double

        enum CodingKeys: String, CodingKey {
            case layout, batch, threads, classes, parameters, steps
            case boxesPerImage = "boxes_per_image", positivesPerImage = "positives_per_image"
            case medianSeconds = "median_s", imagesPerSecond = "img_per_s"
        }
    }

    /// By layout: "NCHW", "channels_last".
    public let measurements: [String: Measurement]
    public let output: String

    static let peerName = "torch-ui-detector"

    /// What the real step trains, as far as the peer needs to know it.
    public struct Workload: Equatable {
        public var batch: Int
        public var threads: Int
        public var classes: Int
        public var boxesPerImage: Int

        public init(batch: Int, threads: Int, classes: Int, boxesPerImage: Int) {
            self.batch = batch; self.threads = threads; self.classes = classes; self.boxesPerImage = boxesPerImage
        }

        public var arguments: [String] {
            ["--batch", "\(batch)", "--threads", "\(threads)", "--classes", "\(classes)", "--boxes", "\(boxesPerImage)"]
        }
    }

    /// Runs train_step_bench.py (both layouts) once; throws unless it printed both.
    public static func run(python: String, folder: String, workload: Workload, warmup: Int = 2, steps: Int) throws -> RealTorchPeer {
        let text = try PeerScript.run(python: python, folder: folder, script: "train_step_bench.py",
                                      arguments: workload.arguments + ["--warmup", "\(warmup)", "--steps", "\(steps)"])
        let measurements = try parse(text)
        for layout in ["NCHW", "channels_last"] where measurements[layout] == nil {
            throw PeerError(message: "train_step_bench.py printed no \(layout) result:\n\(text.suffix(2000))")
        }
        return RealTorchPeer(measurements: measurements, output: text)
    }

    /// Reads the script's JSON lines (`{"peer": "torch-ui-detector", "layout": ..., "img_per_s": ...}`);
    /// other lines (the torch header, the human-readable lines) are skipped. A JSON line of the
    /// peer that does not decode throws, naming the line.
    public static func parse(_ text: String) throws -> [String: Measurement] {
        var result: [String: Measurement] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("{"), trimmed.contains("\"\(peerName)\""), trimmed.contains("\"layout\"") else { continue }
            do {
                let measurement = try JSONDecoder().decode(Measurement.self, from: Data(trimmed.utf8))
                result[measurement.layout] = measurement
            } catch {
                throw PeerError(message: "cannot read the peer's result line \(trimmed.prefix(300)): \(error)")
            }
        }
        return result
    }

    /// Reads `ui_detector.py --shapes`'s JSON line: state-tensor name → shape.
    public static func parseShapes(_ text: String) throws -> [String: [Int]] {
        struct Line: Decodable { let peer: String; let shapes: [String: [Int]] }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            if let decoded = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)), decoded.peer == peerName { return decoded.shapes }
        }
        throw PeerError(message: "ui_detector.py --shapes printed no shapes line:\n\(text.suffix(2000))")
    }

    /// The differences between the peer's state tensors and ScreenLab's (names and shapes of
    /// parameters and batch-norm statistics), at most `limit`; empty when they are the same.
    public static func differences(peer: [String: [Int]], screenLab: [(name: String, shape: [Int])], limit: Int = 8) -> [String] {
        var out: [String] = []
        let ours = Dictionary(screenLab.map { ($0.name, $0.shape) }, uniquingKeysWith: { a, _ in a })
        for (name, shape) in screenLab where peer[name] != shape {
            out.append(peer[name].map { "\(name): ScreenLab \(shape), peer \($0)" } ?? "\(name) \(shape): missing in the peer")
        }
        for name in peer.keys.sorted() where ours[name] == nil { out.append("\(name) \(peer[name]!): only in the peer") }
        return Array(out.prefix(limit))
    }

    /// Checks, before any timing, that the peer builds the model the real step trains: the
    /// detector configuration is the one the peer is written for, and every state tensor has the
    /// same name and shape. Returns a one-line summary; throws naming what differs.
    public static func checkModel(python: String, folder: String, configuration: UIDetectorConfiguration) throws -> String {
        var written = UIDetectorConfiguration(classCount: configuration.classCount)
        written.inputHeight = 512
        written.inputWidth = 256
        guard configuration == written else {
            throw PeerError(message: "the PyTorch peer is written for ScreenLab's default detector (\(written)); the real step trains \(configuration)")
        }
        let text = try PeerScript.run(python: python, folder: folder, script: "ui_detector.py",
                                      arguments: ["--classes", "\(configuration.classCount)", "--shapes"])
        let model = try UIDetector(configuration: configuration)
        let ours = model.stateTensors().map { (name: $0.name, shape: $0.tensor.shape) }
        let differing = differences(peer: try parseShapes(text), screenLab: ours)
        guard differing.isEmpty else {
            throw PeerError(message: "the peer's model differs from ScreenLab's:\n  " + differing.joined(separator: "\n  "))
        }
        return "\(model.parameterCount()) parameters, \(ours.count) state tensors: names and shapes equal ScreenLab's (\(configuration.classCount) classes)"
    }

    /// The real step's detector and its training split's boxes per image (rounded), read from
    /// the experiment as a run reads them (call after `TrainingThroughput` has rendered any
    /// synthetic data, so this only reads the cache).
    public static func realStep(experiment file: URL, overrides: [String]) throws -> (configuration: UIDetectorConfiguration, boxesPerImage: Int) {
        let config = try ExperimentConfig.load(contentsOf: file, overrides: overrides)
        let root = DatasetConfig.repoRoot(containing: file)
        let data = try ExperimentData.load(config.data, repositoryRoot: root, cacheFolder: root.appendingPathComponent("Experiments/cache"), log: { _ in })
        let modelURL = config.model.hasPrefix("/") ? URL(fileURLWithPath: config.model) : root.appendingPathComponent(config.model)
        let configuration = try DetectorModelFile.load(contentsOf: modelURL)
            .configuration(classes: data.dataset.classes, inputWidth: config.inputWidth, inputHeight: config.inputHeight)
        let train = data.dataset.splits[config.data.train] ?? []
        let boxes = train.reduce(0) { $0 + data.dataset.samples[$1].annotations.count }
        return (configuration, Int((Double(boxes) / Double(max(train.count, 1))).rounded()))
    }
}
