import Data
import Imaging
import Support

/// The 13 Screen Recognition classes by their index in `Taxonomy.screenRecognition`.
public enum ScreenClass: Int, CaseIterable {
    case checkboxSelected, checkboxUnselected, container, dialog, icon, pageControl, picture
    case segmentedControl, slider, text, textField, toggleSelected, toggleUnselected
}

/// The kinds of screens the generator composes; each app prefers a few.
enum ScreenKind: Int, CaseIterable {
    case feed, list, settings, form, article, gallery, player, login
}

/// One synthetic app's look: every screen of the app shares it, so an app-level split keeps a
/// look out of the training set (the data-leakage argument of Screen Recognition §4.2).
struct AppTheme {
    let appIndex: Int
    let name: String
    var dark: Bool
    var background: RGBA
    var grouped: RGBA        // background behind grouped rows and cards
    var surface: RGBA        // rows, cards, fields
    var primaryText: RGBA
    var secondaryText: RGBA
    var separator: RGBA
    var fill: RGBA           // field and control backgrounds
    var accent: RGBA
    var toggleOn: RGBA
    var bodyFactor: Int      // bitmap font scale at 1 pixel per point
    var titleFactor: Int
    var largeTitleFactor: Int
    var cornerRadius: Double // points
    var rowHeight: Double    // points
    var margin: Double       // points
    var largeTitles: Bool
    var tabBar: Bool
    var tabCount: Int
    var roundCheckboxes: Bool
    var cardShadows: Bool
    var kindWeights: [Double] // indexed by ScreenKind.rawValue
    var words: Lexicon
    /// nil: the bitmap font.
    var fonts: ThemeFonts?
    /// The phone the app's screens are drawn for (`mixed`: the config's size, notched chrome).
    var device: Device
    var style: SyntheticStyle
    /// A navigation bar filled with this colour (white title and icons); nil: the background's.
    var navigationBarFill: RGBA?

    static let accents: [UInt32] = [0x007AFF, 0x34C759, 0xFF9500, 0xFF3B30, 0xAF52DE, 0xFF2D55, 0x30B0C7, 0x5856D6,
                                    0xE0A800, 0x1DB954, 0x0A84FF, 0xD94F8A, 0x8E5B3A, 0x00897B, 0x3F51B5, 0xF4511E]

    /// Screen-kind popularity over all apps; an app multiplies these by its own random preferences.
    /// Tuned so class counts keep the order of the paper's Table 1 (Text ≫ Icon > Container > Picture ≫ the rest).
    static let baseKindWeights: [Double] = [3, 3.5, 1.4, 1.0, 1.5, 1.5, 0.4, 0.5]

    init(seed: UInt64, appIndex: Int, text: SyntheticText = .freetype, style: SyntheticStyle = .mixed,
         screenPoints: (width: Int, height: Int) = (390, 844)) {
        // A separate stream family from the screens' (which use the screen index) so themes do not
        // depend on how many screens are generated.
        var rng = SeededRandom.stream(seed: seed ^ 0xA99_7E4E, index: UInt64(appIndex))
        self.appIndex = appIndex
        let nameWords = ["Nimbus", "Pebble", "Orbit", "Maple", "Lumen", "Kite", "Harbor", "Fable", "Juniper", "Quartz",
                         "Tandem", "Willow", "Ember", "Cobalt", "Atlas", "Sprout", "Drift", "Beacon", "Mosaic", "Zephyr"]
        name = nameWords[appIndex % nameWords.count] + (appIndex >= nameWords.count ? " \(appIndex / nameWords.count + 1)" : "")
        dark = rng.chance(0.3)
        let accentHex = AppTheme.accents[rng.int(in: 0..<AppTheme.accents.count)]
        accent = RGBA(hex: accentHex)
        toggleOn = rng.chance(0.6) ? RGBA(hex: 0x34C759) : accent
        if dark {
            background = rng.chance(0.5) ? RGBA(0, 0, 0) : RGBA(18, 18, 20)
            grouped = background
            surface = RGBA(28, 28, 30)
            primaryText = RGBA(242, 242, 247)
            secondaryText = RGBA(142, 142, 147)
            separator = RGBA(56, 56, 58)
            fill = RGBA(44, 44, 46)
        } else {
            let tint = rng.chance(0.25)
            background = tint ? RGBA(hex: accentHex).mixed(with: .white, 0.94) : .white
            grouped = rng.chance(0.6) ? RGBA(242, 242, 247) : .white
            surface = .white
            primaryText = rng.chance(0.8) ? RGBA(0, 0, 0) : RGBA(28, 28, 40)
            secondaryText = RGBA(128, 128, 134)
            separator = RGBA(220, 220, 224)
            fill = RGBA(236, 236, 240)
        }
        bodyFactor = 2
        titleFactor = rng.chance(0.5) ? 2 : 3
        cornerRadius = [0.0, 6, 10, 14, 18][rng.int(in: 0..<5)]
        rowHeight = [48.0, 56, 64, 72][rng.int(in: 0..<4)]
        margin = [12.0, 16, 20][rng.int(in: 0..<3)]
        largeTitles = rng.chance(0.45)
        tabBar = rng.chance(0.65)
        tabCount = rng.int(in: 3...5)
        roundCheckboxes = rng.chance(0.4)
        cardShadows = !dark && rng.chance(0.5)
        kindWeights = AppTheme.baseKindWeights.map { $0 * rng.uniform(0.15, 1.85) }
        // Language and type from a stream of their own: the bitmap font's themes stay as they were.
        if text == .freetype {
            var typeRNG = SeededRandom.stream(seed: seed ^ 0x7E47_F0E7, index: UInt64(appIndex))
            words = Lexicon.pick(&typeRNG)
            fonts = ThemeFonts(&typeRNG, words: words)
        } else {
            words = .english
            fonts = nil
        }
        largeTitleFactor = titleFactor + 1
        device = Device(widthPoints: screenPoints.width, heightPoints: screenPoints.height, classic: false)
        self.style = style
        navigationBarFill = nil
        // Drawn over the mixed look from streams of its own, so the mixed apps stay as they were.
        if style == .ios { applyIOSStyle(seed: seed, screenPoints: screenPoints) }
    }

    func kind(_ rng: inout SeededRandom, mix: ClassMix = .standard) -> ScreenKind {
        let weights = kindWeights.enumerated().map { $0.element * mix.kindFactor(ScreenKind(rawValue: $0.offset)!) }
        let total = weights.reduce(0, +)
        var u = rng.uniform() * total
        for (index, weight) in weights.enumerated() {
            u -= weight
            if u < 0 { return ScreenKind(rawValue: index)! }
        }
        return .list
    }

    /// A random picture palette (two or three colours that go together).
    func pictureColors(_ rng: inout SeededRandom) -> [RGBA] {
        func hsv(_ h: Double, _ s: Double, _ v: Double) -> RGBA {
            let i = Int(h * 6) % 6, f = h * 6 - Double(Int(h * 6))
            let p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s)
            let (r, g, b): (Double, Double, Double) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
            return RGBA(UInt8(r * 255), UInt8(g * 255), UInt8(b * 255))
        }
        let hue = rng.uniform()
        let shift = rng.uniform(0.05, 0.35)
        return [hsv(hue, rng.uniform(0.35, 0.9), rng.uniform(0.55, 1)),
                hsv((hue + shift).truncatingRemainder(dividingBy: 1), rng.uniform(0.3, 0.9), rng.uniform(0.35, 0.95))]
    }
}
