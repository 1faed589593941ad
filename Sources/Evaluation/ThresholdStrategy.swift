import Foundation

/// How a per-class confidence threshold is chosen from that class's operating points.
public enum ThresholdStrategy: Equatable, CustomStringConvertible {
    /// The confidence with the highest F1 (ties: the higher confidence).
    case maxF1
    /// The most recall with precision ≥ the target; among points with that recall, the highest confidence.
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
    /// nil when the class has no ground truth, no detections or no matching detection on the split it was picked on.
    public var point: OperatingPoint?
    /// True when the target could not be met and max-F1 was used instead.
    public var fellBack: Bool
    public var note: String?

    public init(className: String, point: OperatingPoint?, fellBack: Bool, note: String? = nil) {
        self.className = className; self.point = point; self.fellBack = fellBack; self.note = note
    }
}

public enum ThresholdPicker {
    /// `split` names the data the curve comes from, for the notes ("no ground truth on …").
    public static func pick(_ curve: OperatingCurve, className: String, strategy: ThresholdStrategy,
                            split: String = "this split") -> PickedThreshold {
        guard curve.groundTruthCount > 0 else {
            return PickedThreshold(className: className, point: nil, fellBack: false, note: "no ground truth on \(split)")
        }
        guard !curve.points.isEmpty else {
            return PickedThreshold(className: className, point: nil, fellBack: false, note: "no detections on \(split)")
        }
        let points = curve.points  // high → low confidence: recall never falls along the list
        // A confidence at which nothing is found is no choice: leave the class without one.
        func fallback(_ reason: String) -> PickedThreshold {
            guard let best = maxF1(points) else {
                return PickedThreshold(className: className, point: nil, fellBack: false,
                                       note: (reason.isEmpty ? "" : reason + "; ") + "no detection matches on \(split) (F1 is 0 at every confidence)")
            }
            return PickedThreshold(className: className, point: best, fellBack: !reason.isEmpty, note: reason.isEmpty ? nil : reason + "; used max-F1")
        }
        switch strategy {
        case .maxF1:
            return fallback("")
        case .precision(let target):
            // The most recall at that precision; of the points with that recall, the highest
            // confidence (a lower one only adds false positives).
            let meeting = points.filter { $0.precision >= target }
            if let recall = meeting.map(\.recall).max(), let chosen = meeting.first(where: { $0.recall == recall }) {
                return PickedThreshold(className: className, point: chosen, fellBack: false)
            }
            let best = points.map(\.precision).max() ?? 0
            return fallback("precision \(target) is never reached (best \(formatted(best)))")
        case .recall(let target):
            if let highest = points.first(where: { $0.recall >= target }) {
                return PickedThreshold(className: className, point: highest, fellBack: false)
            }
            return fallback("recall \(target) is never reached (best \(formatted(points.last?.recall ?? 0)))")
        }
    }

    /// The highest F1, nil when F1 is 0 everywhere. Scanning from high to low confidence and
    /// replacing only on a strictly higher F1 keeps the higher confidence on ties.
    static func maxF1(_ points: [OperatingPoint]) -> OperatingPoint? {
        var best: OperatingPoint?
        for point in points where point.f1 > (best?.f1 ?? 0) { best = point }
        return best
    }

    static func formatted(_ value: Double) -> String { String(format: "%.3f", value) }
}
