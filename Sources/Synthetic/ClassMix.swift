import Data
import Foundation
import Support

/// How strongly the generator favours the layouts that draw each class: one non-negative
/// multiplier per Screen Recognition class, 1 for all in the default mix (today's screens,
/// byte for byte: every decision keeps its exact probability and its random draw).
///
/// A multiplier `m` acts on the layout decisions that draw the class, never on single boxes,
/// so screens stay coherent (a boosted slider means more slider rows and player screens, not
/// sliders scattered over a feed):
/// - a yes/no choice of probability p becomes p' = 1 − (1 − p)^m: m = 1 keeps p, m = 0 gives 0,
///   p' stays in [0, 1] for any m ≥ 0 and grows like m·p while p is small (`boosted`);
/// - a checked-or-not / on-or-off share p of a class pair becomes the share with its odds scaled
///   by m_selected / m_unselected (`selectedShare`), again in [0, 1];
/// - a screen kind's weight is multiplied by √(max m of the classes that mark it) (settings:
///   toggles and sliders; form: checkboxes, text fields, segmented controls; login: checkboxes,
///   text fields; player: sliders; article: page controls), the square root because a kind
///   also brings the common classes along and the choices within it are boosted already.
/// - a placement the default mix never makes (a second carousel further down an article or a
///   gallery) opens with probability p·(1 − 1/m) for m > 1 (`extra`), in [0, p); at m ≤ 1 it
///   takes no random draw, so the other choices of a screen stay as they were.
/// When a decision draws several classes, the largest of their multipliers applies.
public struct ClassMix: Equatable, CustomStringConvertible {
    /// Indexed by `ScreenClass.rawValue` (the `Taxonomy.screenRecognition` order).
    public private(set) var multipliers: [Double]

    public init() { multipliers = Array(repeating: 1, count: ScreenClass.allCases.count) }

    /// Multipliers by class name (see `classIndex(named:)`); classes not named keep 1.
    public init(_ byName: [String: Double]) throws {
        self.init()
        for (name, value) in byName.sorted(by: { $0.key < $1.key }) {
            guard let index = Self.classIndex(named: name) else { throw ClassMixError.unknownClass(name, suggestion: Self.suggestion(for: name)) }
            guard value.isFinite, value >= 0, value <= Self.maximum else { throw ClassMixError.badMultiplier(name, value) }
            multipliers[index] = value
        }
    }

    public static let standard = ClassMix()
    /// Above this a choice is certain in practice ((1 − 0.01)^1000 ≈ 4e-5); larger numbers are typos.
    public static let maximum = 1000.0

    /// Named mixes for configs and the CLI. `rare-controls` lifts the nine rare classes so that
    /// each has at least ~300 boxes in 900 screens (Reports/synthetic/README.md has the counts).
    public static let presets: [(name: String, mix: ClassMix)] = [
        ("default", .standard),
        ("rare-controls", try! ClassMix([
            "Checkbox (Selected)": 6, "Checkbox (Unselected)": 3, "Dialog": 3.5, "Page Control": 8,
            "Slider": 8, "Toggle (Selected)": 4, "Toggle (Unselected)": 3, "Segmented Control": 1.5,
        ])),
    ]

    public static func preset(named name: String) -> ClassMix? { presets.first { $0.name == name }?.mix }

    /// The preset this mix equals, if any.
    public var presetName: String? { Self.presets.first { $0.mix == self }?.name }

    public var isStandard: Bool { self == .standard }

    public subscript(_ kind: ScreenClass) -> Double { multipliers[kind.rawValue] }

    /// Class names as in the taxonomy, but any case and punctuation: "Page Control",
    /// "page_control" and "pagecontrol" all name class 5.
    public static func classIndex(named name: String) -> Int? {
        let key = normalized(name)
        return Taxonomy.screenRecognition.classes.firstIndex { normalized($0) == key }
    }

    static func normalized(_ name: String) -> String { String(name.lowercased().filter { $0.isLetter || $0.isNumber }) }

    /// The class name at the smallest edit distance, when it is close enough to be a typo.
    static func suggestion(for name: String) -> String? {
        let key = normalized(name)
        let scored = Taxonomy.screenRecognition.classes.map { ($0, editDistance(key, normalized($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, key.count / 3) else { return nil }
        return best.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count { current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)) }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    // MARK: The mapping

    /// p' = 1 − (1 − p)^m, exactly p for m = 1 (no rounding: the default mix must not move a draw).
    public static func boosted(_ p: Double, by m: Double) -> Double {
        if m == 1 { return p }
        let q = 1 - min(max(p, 0), 1)
        return min(max(1 - pow(q, m), 0), 1)
    }

    /// The share of the selected variant with its odds scaled by `selected / unselected`;
    /// exactly p when both multipliers are equal. Both 0: p (the pair is not drawn anyway).
    public static func selectedShare(_ p: Double, selected: Double, unselected: Double) -> Double {
        if selected == unselected { return p }
        let yes = p * selected, no = (1 - p) * unselected
        return yes + no > 0 ? min(max(yes / (yes + no), 0), 1) : p
    }

    /// p·(1 − 1/m) for m > 1, else 0: see the type's comment.
    public static func extra(_ p: Double, by m: Double) -> Double { m > 1 ? min(max(p, 0), 1) * (1 - 1 / m) : 0 }

    /// The probability of a decision that draws `classes`, boosted by their largest multiplier.
    func chance(_ p: Double, drawing classes: [ScreenClass]) -> Double {
        Self.boosted(p, by: classes.map { self[$0] }.max() ?? 1)
    }

    /// The weight factor of a screen kind (1 for kinds without rare classes of their own).
    func kindFactor(_ kind: ScreenKind) -> Double {
        let marks: [ScreenClass]
        switch kind {
        case .settings: marks = [.toggleSelected, .toggleUnselected, .slider]
        case .form: marks = [.checkboxSelected, .checkboxUnselected, .textField, .segmentedControl]
        case .login: marks = [.checkboxSelected, .checkboxUnselected, .textField]
        case .player: marks = [.slider]
        case .article: marks = [.pageControl]
        case .feed, .list, .gallery: return 1
        }
        let m = marks.map { self[$0] }.max()!
        return m == 1 ? 1 : m.squareRoot()
    }

    // MARK: Naming

    /// "default", a preset's name, or the non-1 multipliers as "Slider=4, Dialog=3".
    public var description: String {
        presetName ?? zip(Taxonomy.screenRecognition.classes, multipliers).filter { $0.1 != 1 }.map { "\($0.0)=\(Self.number($0.1))" }.joined(separator: ", ")
    }

    /// A short file-name-safe tag that changes with any multiplier: the preset's name or a hash.
    public var tag: String {
        if let presetName { return presetName }
        var hash = FNV1a()  // over the canonical text
        hash.mix(multipliers.map(Self.number).joined(separator: ",").utf8)
        return "custom-" + String(String(hash.value, radix: 16).suffix(10))
    }

    static func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)" }

    /// A CLI value: a preset name, or `Class=number` pairs separated by commas.
    public static func parse(_ text: String) throws -> ClassMix {
        if let preset = preset(named: text) { return preset }
        guard text.contains("=") else { throw ClassMixError.unknownPreset(text, known: presets.map(\.name)) }
        var byName: [String: Double] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Double(parts[1]) else { throw ClassMixError.badPair(String(pair)) }
            byName[parts[0]] = value
        }
        return try ClassMix(byName)
    }
}

public enum ClassMixError: Error, CustomStringConvertible, Equatable {
    case unknownClass(String, suggestion: String?)
    case badMultiplier(String, Double)
    case unknownPreset(String, known: [String])
    case badPair(String)

    public var description: String {
        switch self {
        case let .unknownClass(name, suggestion):
            return "class mix: '\(name)' is not a class" + (suggestion.map { " — did you mean '\($0)'?" } ?? "")
                + " (classes: \(Taxonomy.screenRecognition.classes.joined(separator: ", ")))"
        case let .badMultiplier(name, value):
            return "class mix: \(name) = \(value) is not allowed; use a multiplier in 0…\(ClassMix.number(ClassMix.maximum)) (1 keeps the default)"
        case let .unknownPreset(name, known):
            return "class mix: '\(name)' is neither a preset (\(known.joined(separator: ", "))) nor Class=number pairs such as 'Slider=4,Dialog=3'"
        case let .badPair(text):
            return "class mix: '\(text)' is not Class=number (e.g. 'Slider=4')"
        }
    }
}
