/// The text `screenlab weights inspect` prints: version, header fields, tensor table, totals.
public enum WeightsReport {
    public static func text(_ weights: WeightsFile, loadMilliseconds: Double?, cpuMilliseconds: Double? = nil) -> String {
        let header = weights.header
        var lines: [String] = []
        if let layout = weights.layout {
            lines.append("format \(layout.version) (this ScreenLab reads up to \(FormatVersion.current)), "
                         + "\(layout.fileSize) bytes, header \(layout.headerByteCount) bytes, data from byte \(layout.dataOffset)")
        }
        if let loadMilliseconds {
            let cpu = cpuMilliseconds.map { ", \(format($0, digits: 2)) ms CPU" } ?? ""
            lines.append("load time: \(format(loadMilliseconds, digits: 2)) ms\(cpu) (read, bounds checks, CRC-32 of every tensor)")
        }
        let options = header.architecture.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        lines.append("architecture: \(header.architecture.name)\(options.isEmpty ? "" : " (\(options))")")
        lines.append("input: \(header.input.width)x\(header.input.height), \(header.input.channels) channels")
        lines.append("normalization: mean \(header.normalization.mean), std \(header.normalization.std) (on pixel / 255)")
        lines.append("classes (\(header.classes.count)):")
        for (index, name) in header.classes.enumerated() {
            let threshold = header.threshold(forClass: name).map {
                "confidence \(format($0.confidence, digits: 3))  P \(format($0.precision, digits: 3))  "
                    + "R \(format($0.recall, digits: 3))  F1 \(format($0.f1, digits: 3))  (picked on \($0.split))"
            } ?? (header.thresholds == nil ? "" : "no threshold (caller's default)")
            lines.append("  \(pad(String(index), 3)) \(pad(name, 24)) \(threshold)")
        }
        if header.thresholds == nil { lines.append("thresholds: not picked (set them with `screenlab weights set-thresholds`)") }
        lines.append(contentsOf: provenanceLines(header.provenance))
        if let training = header.training {
            lines.append("training: seed \(training.seed), \(training.epochs) epochs\(training.config.map { ", config \($0)" } ?? "")")
        }
        lines.append(contentsOf: tableLines(weights))
        return lines.joined(separator: "\n")
    }

    private static func provenanceLines(_ provenance: Provenance) -> [String] {
        let fields: [(String, String?)] = [
            ("run", provenance.runID), ("experiment", provenance.experiment), ("dataset", provenance.dataset),
            ("splits", [provenance.trainSplit, provenance.valSplit, provenance.testSplit].contains { $0 != nil }
                ? "train \(provenance.trainSplit ?? "-"), val \(provenance.valSplit ?? "-"), test \(provenance.testSplit ?? "-")" : nil),
            ("git commit", provenance.gitCommit), ("created", provenance.created),
            ("val mAP@0.5", provenance.valMAP50.map { format($0, digits: 4) }),
            ("test mAP@0.5", provenance.testMAP50.map { format($0, digits: 4) }),
        ]
        return ["provenance:"] + fields.map { "  \(pad($0.0 + ":", 14)) \($0.1 ?? "unknown")" }
    }

    private static func tableLines(_ weights: WeightsFile) -> [String] {
        var lines = ["tensors:"]
        let width = min(60, weights.tensors.map(\.name.count).max() ?? 4)
        if let entries = weights.layout?.entries {
            lines.append("  \(pad("name", width)) dtype \(pad("shape", 18)) \(pad("offset", 10)) \(pad("bytes", 10)) crc32")
            for entry in entries {
                let crc = String(entry.checksum, radix: 16)
                lines.append("  \(pad(entry.name, width)) \(pad(entry.dtype.description, 5)) \(pad("\(entry.shape)", 18)) "
                             + "\(pad(String(entry.offset), 10)) \(pad(String(entry.byteLength), 10)) "
                             + String(repeating: "0", count: 8 - crc.count) + crc)
            }
        } else {
            for (name, tensor) in weights.tensors { lines.append("  \(pad(name, width)) \(pad(weights.dtype(of: name).description, 5)) \(tensor.shape)") }
        }
        let bytes = weights.dataByteCount
        let half = weights.tensors.filter { weights.float16Tensors.contains($0.name) }
        let storage = half.isEmpty ? "float32"
            : half.count == weights.tensors.count ? "float16"
            : "float16 (\(half.count) tensors) and float32 (\(weights.tensors.count - half.count))"
        lines.append("total: \(weights.tensors.count) tensors, \(weights.elementCount) values, "
                     + "\(bytes) bytes (\(format(Double(bytes) / 1_048_576, digits: 2)) MiB) of \(storage)")
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Fixed decimals without Foundation's locale-dependent formatting.
    static func format(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled) - whole * Int(scale)
        let fractionText = String(fraction)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return digits == 0 ? sign + String(whole)
            : "\(sign)\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}
