
/// What the synthetic screen generator draws. Screens are `widthPoints × heightPoints` points
/// rendered at `scale` pixels per point (390 × 844 is an iPhone 14 in points).
public struct SyntheticConfig: Equatable {
    public var seed: UInt64
    /// Pixels per point: 1 (390 × 844 images, the default: small and fast) or 2 (780 × 1688).
    public var scale: Int
    /// Screens are spread over this many apps, each with its own theme (the sample's `group`).
    public var appCount: Int
    /// Chance that a screen shows an alert dialog over a dimmed background.
    public var dialogProbability: Double
    public var widthPoints: Int
    public var heightPoints: Int
    /// How often the layouts that draw each class are chosen (`ClassMix`; the default changes nothing).
    public var classMix: ClassMix
    /// How text is drawn: real fonts through FreeType (the default), or the 5×7 bitmap font of
    /// generator version 1 (English only; kept to reproduce the earlier screens).
    public var text: SyntheticText
    /// The apps' look: `mixed` (today's screens: many app styles, the default) or `ios` (iOS system
    /// chrome and metrics, classic and notched iPhones, Latin, Hangul and CJK text; IOSStyle.swift).
    public var style: SyntheticStyle

    public init(seed: UInt64 = 0, scale: Int = 1, appCount: Int = 100, dialogProbability: Double = 0.12,
                widthPoints: Int = 390, heightPoints: Int = 844, classMix: ClassMix = .standard, text: SyntheticText = .freetype,
                style: SyntheticStyle = .mixed) {
        self.seed = seed
        self.style = style
        self.classMix = classMix
        self.text = text
        self.scale = scale
        self.appCount = appCount
        self.dialogProbability = dialogProbability
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
    }

    /// Names everything besides seed, count and size that decides the pixels and labels, for
    /// cache folder names: a cached render is reused only while this (and the rest of its
    /// name) is unchanged. Raise `SyntheticScreenGenerator.version` with any change to how
    /// screens are drawn.
    public var cacheTag: String {
        "g\(SyntheticScreenGenerator.version)-\(text.rawValue)-mix-\(classMix.tag)"
            + (style == .mixed ? "" : "-\(style.rawValue)") + (scale == 1 ? "" : "-x\(scale)") + (dialogProbability == SyntheticConfig().dialogProbability ? "" : "-dialog\(dialogProbability)")
    }

    /// Throws naming the first setting out of range.
    public func validate() throws {
        guard (1...3).contains(scale) else { throw SyntheticError.badSetting("scale", "\(scale)", "use 1, 2 or 3 pixels per point") }
        guard appCount >= 1 else { throw SyntheticError.badSetting("appCount", "\(appCount)", "need at least one app") }
        guard dialogProbability.isFinite, (0...1).contains(dialogProbability) else {
            throw SyntheticError.badSetting("dialogProbability", "\(dialogProbability)", "use a probability in 0...1")
        }
        // The layouts are phone-sized; far smaller screens cannot hold the chrome.
        guard (320...1024).contains(widthPoints) else { throw SyntheticError.badSetting("widthPoints", "\(widthPoints)", "use 320...1024") }
        guard (568...2048).contains(heightPoints) else { throw SyntheticError.badSetting("heightPoints", "\(heightPoints)", "use 568...2048") }
        // iOS apps in Korean, Chinese and Japanese need real fonts; the bitmap font is English only.
        guard style != .ios || text == .freetype else { throw SyntheticError.badSetting("text", text.rawValue, "the ios style needs text: freetype") }
    }
}

public enum SyntheticText: String, CaseIterable, Equatable, Sendable {
    case freetype, bitmap
}

public enum SyntheticStyle: String, CaseIterable, Equatable, Sendable {
    case mixed, ios
}

public enum SyntheticError: Error, CustomStringConvertible, Equatable {
    case badSetting(String, String, String)
    case badSplit(String)

    public var description: String {
        switch self {
        case let .badSetting(name, value, hint): return "synthetic screens: \(name) = \(value) is not allowed; \(hint)"
        case let .badSplit(reason): return "synthetic screens: \(reason)"
        }
    }
}
