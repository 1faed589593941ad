import Foundation

/// How a per-class confidence threshold is chosen from that class's operating points.
public enum ThresholdStrategy: Equatable, CustomStringConvertible {
    /// The confidence with the highest F1 (ties: the higher confidence).
    case maxF1
    /// The lowest confidence whose precision is still ≥ the target (the most recall at that precision).
    case precision(Double)
    /// The highest confidence whose recall reaches the target.
    case recall(Double)

    /// Parses "max-f1", "precision:0.90" or "recall:0.80".
    public init(parsing text: String) throws {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lowered == "max-f1" { self = .maxF1; return }
        let parts = lowered.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let target = Double(parts[1]), target > 0, target <= 1 else {
            throw EvaluationError.invalidOption("unknown threshold strategy '\(text)'; use max-f1, precision:P or recall:R with 0 < P, R ≤ 1 (e.g. precision:0.90)")
        }
        switch parts[0] {
        case "precision": self = .precision(target)
        case "recall": self = .recall(target)
        default:
            throw EvaluationError.invalidOption("unknown threshold strategy '\(text)'; use max-f1, precision:P or recall:R")
        }
    }

    public var description: String {
        switch self {
        case .maxF1: return "max-f1"
        case .precision(let p): return "precision:\(p)"
        case .recall(let r): return "recall:\(r)"
        }
    }
}

/// The outcome for one class.
public struct PickedThreshold: Equatable {
    public var className: String
    /// nil when the class has no detections (or no ground truth) on the split it was picked on.
    public var point: OperatingPoint?
    /// True when the target could not be met and max-F1 was used instead.
    public var fellBack: Bool
    public var note: String?

    public init(className: String, point: OperatingPoint?, fellBack: Bool, note: String? = nil) {
        self.className = className; self.point = point; self.fellBack = fellBack; self.note = note
    }
}

public enum ThresholdPicker {
    public static func pick(_ curve: OperatingCurve, className: String, strategy: ThresholdStrategy) -> PickedThreshold {
        guard curve.groundTruthCount > 0 else {
            return PickedThreshold(className: className, point: nil, fellBack: false, note: "no ground truth on this split")
        }
        guard !curve.points.isEmpty else {
            return PickedThreshold(className: className, point: nil, fellBack: false, note: "no detections on this split")
        }
        let points = curve.points  // high → low confidence
        switch strategy {
        case .maxF1:
            return PickedThreshold(className: className, point: maxF1(points), fellBack: false)
        case .precision(let target):
            if let lowest = points.last(where: { $0.precision >= target }) {
                return PickedThreshold(className: className, point: lowest, fellBack: false)
            }
            let best = points.map(\.precision).max() ?? 0
            return PickedThreshold(className: className, point: maxF1(points), fellBack: true,
                                   note: "precision \(target) is never reached (best \(formatted(best))); used max-F1")
        case .recall(let target):
            if let highest = points.first(where: { $0.recall >= target }) {
                return PickedThreshold(className: className, point: highest, fellBack: false)
            }
            return PickedThreshold(className: className, point: maxF1(points), fellBack: true,
                                   note: "recall \(target) is never reached (best \(formatted(points.last?.recall ?? 0))); used max-F1")
        }
    }

    /// Scanning from high to low confidence and replacing only on a strictly higher F1 keeps the higher confidence on ties.
    static func maxF1(_ points: [OperatingPoint]) -> OperatingPoint {
        var best = points[0]
        for point in points.dropFirst() where point.f1 > best.f1 { best = point }
        return best
    }

    static func formatted(_ value: Double) -> String { String(format: "%.3f", value) }
}
