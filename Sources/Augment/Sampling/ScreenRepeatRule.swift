import Data

/// `sampler.repeat_screens: {source=vins_iphone: 2}`: screens whose manifest column KEY is VALUE
/// are drawn `factor` times as often (their repeat factor multiplied; rules that both match
/// multiply). For a platform the product serves but the data under-represents — vins-ui's
/// training split is 17 % iPhone screens, Screen Recognition an iPhone feature — without
/// changing the data or its splits.
public struct ScreenRepeatRule: Equatable, Sendable {
    public var key: String
    public var value: String
    public var factor: Double

    /// At most 16× a screen: more would make an epoch mostly copies of a few screens.
    public static let factorRange = 1.0...16.0

    public init(key: String, value: String, factor: Double) {
        self.key = key
        self.value = value
        self.factor = factor
    }

    /// "KEY=VALUE" as the rule's condition, nil unless both sides are non-empty.
    public static func condition(_ text: String) -> (key: String, value: String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let key = String(text[..<equals]), value = String(text[text.index(after: equals)...])
        return key.isEmpty || value.isEmpty ? nil : (key, value)
    }

    public var condition: String { "\(key)=\(value)" }

    public func matches(_ sample: Sample) -> Bool { sample.metadata?[key] == value }

    /// Per screen, the product of the factors of the rules it matches (1 for none). Throws, naming
    /// the rule, when a rule matches no screen: a misspelt column or value would otherwise be a
    /// silent no-op.
    public static func factors(_ rules: [ScreenRepeatRule], samples: [Sample]) throws -> [Double] {
        var factors = [Double](repeating: 1, count: samples.count)
        for rule in rules {
            var matched = 0
            for (i, sample) in samples.enumerated() where rule.matches(sample) {
                factors[i] *= rule.factor
                matched += 1
            }
            guard matched > 0 else {
                let columns = Set(samples.flatMap { $0.metadata?.keys.map { $0 } ?? [] }).sorted()
                let values = Set(samples.compactMap { $0.metadata?[rule.key] }).sorted()
                let known = columns.isEmpty ? "these screens have no manifest columns"
                    : values.isEmpty ? "manifest columns: \(columns.joined(separator: ", "))"
                    : "\(rule.key) takes \(values.prefix(12).joined(separator: ", "))"
                throw ScreenRepeatError(description: "sampler.repeat_screens: \(rule.condition) matches none of the \(samples.count) training screens (\(known))")
            }
        }
        return factors
    }
}

public struct ScreenRepeatError: Error, CustomStringConvertible {
    public let description: String
}
