import Foundation
import Support

/// `metrics.csv`: one row per epoch — each loss term's mean, learning rate, val mAP@0.5 (empty
/// when the epoch was not validated), images/s and seconds. Rewritten atomically every epoch.
public struct MetricsLog: Equatable {
    public struct Row: Equatable, Codable {
        public var epoch: Int
        public var losses: [String: Double]
        public var learningRate: Double
        public var valMAP50: Double?
        public var valMAPCenter: Double?
        public var imagesPerSecond: Double
        public var seconds: Double
    }

    public var lossNames: [String] = []
    public var rows: [Row] = []

    public init() {}

    public mutating func append(_ row: Row) {
        for name in row.losses.keys.sorted() where !lossNames.contains(name) { lossNames.append(name) }
        rows.removeAll { $0.epoch == row.epoch }
        rows.append(row)
    }

    public var csv: String {
        var lines = [(["epoch"] + lossNames.map { "loss_\($0)" } + ["lr", "val_map50", "val_map_center", "images_per_second", "seconds"]).joined(separator: ",")]
        for row in rows {
            var fields = ["\(row.epoch + 1)"]
            fields += lossNames.map { row.losses[$0].map { String(format: "%.6f", $0) } ?? "" }
            fields += [String(format: "%.6g", row.learningRate), row.valMAP50.map { String(format: "%.6f", $0) } ?? "",
                       row.valMAPCenter.map { String(format: "%.6f", $0) } ?? "", String(format: "%.2f", row.imagesPerSecond),
                       String(format: "%.1f", row.seconds)]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public func write(to url: URL) throws { try AtomicFile.write(csv, to: url) }
}
