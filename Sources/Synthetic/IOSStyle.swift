import Foundation
import Imaging
import Support
import Typography

/// The phone a screen is drawn for: its size in points and the chrome that comes with it.
struct Device: Equatable {
    let widthPoints: Int
    let heightPoints: Int
    /// An iPhone with a home button (8 and before): a 20-point status bar with carrier, centred
    /// time and battery percentage, a 49-point tab bar and no home indicator — the look of most
    /// iPhone screens in vins-ui (360 × 640 screenshots of 375 × 667-point phones).
    let classic: Bool

    static let classicPhone = Device(widthPoints: 375, heightPoints: 667, classic: true)

    var statusBarHeight: Double { classic ? 20 : 47 }
    var tabBarHeight: Double { classic ? 49 : 83 }  // notched: 49 of items + 34 of home indicator area
    /// What the home indicator keeps free at the bottom of a screen without a tab bar.
    var bottomInset: Double { classic ? 0 : 34 }
}

/// The `ios` style: every app follows Apple's system look (system colours and grouped tables,
/// 17-point body text and 34-point large titles, the green switch, round checkmarks), half the apps
/// on a phone with a home button, a third in dark appearance, and text in English, Korean
/// (Hangul), Chinese and Japanese. Drawn from random streams of its own, over the mixed look's
/// draws, so that `mixed` apps stay exactly as they were.
extension AppTheme {
    /// iOS's system colours (light appearance) besides blue.
    static let systemAccents: [UInt32] = [0x34C759, 0xFF9500, 0xFF3B30, 0xAF52DE, 0xFF2D55, 0x5AC8FA, 0x5856D6, 0xFFCC00, 0x30B0C7]

    mutating func applyIOSStyle(seed: UInt64, screenPoints: (width: Int, height: Int)) {
        var rng = SeededRandom.stream(seed: seed ^ 0x1057_1E5, index: UInt64(appIndex))
        device = rng.chance(0.5) ? .classicPhone : Device(widthPoints: screenPoints.width, heightPoints: screenPoints.height, classic: false)
        dark = rng.chance(0.33)
        let systemBlue = rng.chance(0.55)
        accent = systemBlue ? RGBA(hex: dark ? 0x0A84FF : 0x007AFF) : RGBA(hex: Self.systemAccents[rng.int(in: 0..<Self.systemAccents.count)])
        toggleOn = rng.chance(0.85) ? RGBA(hex: dark ? 0x30D158 : 0x34C759) : accent
        let insetGrouped = rng.chance(0.55)
        if dark {
            grouped = .black
            background = .black
            surface = RGBA(28, 28, 30)
            primaryText = .white
            secondaryText = RGBA(142, 142, 147)
            separator = RGBA(56, 56, 58)
            fill = RGBA(44, 44, 46)
        } else {
            grouped = RGBA(242, 242, 247)
            background = insetGrouped ? grouped : .white
            surface = .white
            primaryText = .black
            secondaryText = RGBA(138, 138, 142)
            separator = RGBA(198, 198, 200)
            fill = RGBA(238, 238, 239)
        }
        // Before large titles (iOS 11) many apps filled the bar with their colour.
        navigationBarFill = !dark && device.classic && rng.chance(0.3) ? accent : nil
        cornerRadius = insetGrouped ? 10 : [0.0, 8, 12][rng.int(in: 0..<3)]
        rowHeight = [44.0, 44, 52, 60, 64][rng.int(in: 0..<5)]
        margin = rng.chance(0.75) ? 16 : 20
        titleFactor = rng.chance(0.6) ? 2 : 3
        largeTitleFactor = 4
        largeTitles = rng.chance(device.classic ? 0.25 : 0.6)
        tabBar = rng.chance(0.75)
        tabCount = rng.int(in: 3...5)
        roundCheckboxes = rng.chance(0.8)
        cardShadows = !dark && rng.chance(0.3)
        var typeRNG = SeededRandom.stream(seed: seed ^ 0x1057_7E47, index: UInt64(appIndex))
        words = Lexicon.pick(&typeRNG, shares: Lexicon.iosShares)
        let families = words.needsCJKFont ? FontFamily.cjk : FontFamily.alphabetic
        // iOS's text styles: footnote 13, body 17, title 2–3 20–22, large title 34.
        fonts = ThemeFonts(family: families[typeRNG.int(in: 0..<families.count)],
                           sizes: [typeRNG.int(in: 12...13), typeRNG.int(in: 16...17), typeRNG.int(in: 20...22), typeRNG.int(in: 32...34)])
    }
}

extension ScreenBuilder {
    /// iOS 10's status bar: signal dots and carrier, Wi-Fi, the time centred, battery with its percentage.
    mutating func classicStatusBar(ink: RGBA) {
        let centerY = statusBarHeight / 2
        let bars = int(2...5)
        for i in 0..<5 { fillCircle(7 + Double(i) * 6.5, centerY, 2.6, .solid(ink.withOpacity(i < bars ? 1 : 0.3))) }
        let carrier = pick(["AT&T", "Verizon", "T-Mobile", "SKT", "KT", "LG U+", "docomo", "SoftBank", "中国移动", "Carrier"])
        let carrierWidth = text(carrier, x: 40, centerY: centerY, factor: 1, color: ink, labelled: false).width
        wifi(x: 40 + carrierWidth + 5, centerY: centerY, ink: ink)
        let time = "\(int(1...12)):\(String(format: "%02d", int(0...59))) \(chance(0.5) ? "AM" : "PM")"
        let timeWidth = measure(time, factor: 1, bold: true).width
        text(time, x: (width - timeWidth) / 2, centerY: centerY, factor: 1, color: ink, bold: true, labelled: false)
        let level = int(5...100)
        strokeRounded(width - 30, centerY - 5, 23, 10.5, radius: 2.5, thickness: 1, ink.withOpacity(0.5))
        fillRounded(width - 28.5, centerY - 3.5, 20 * Double(level) / 100, 7.5, radius: 1.5, .solid(level <= 20 ? RGBA(255, 59, 48) : ink))
        fillRounded(width - 6.5, centerY - 2, 1.5, 4, radius: 0.7, .solid(ink.withOpacity(0.5)))
        let percent = "\(level)%"
        text(percent, x: width - 34 - measure(percent, factor: 1).width, centerY: centerY, factor: 1, color: ink, labelled: false)
    }

    /// The Wi-Fi fan: three nested quarter-circle bands (drawn as thin polygons) over a dot.
    private mutating func wifi(x: Double, centerY: Double, ink: RGBA) {
        let cx = x + 7, cy = centerY + 4.5
        fillCircle(cx, cy - 0.6, 1.4, .solid(ink))
        for radius in [4.0, 7.0] {
            var previous: (Double, Double)?
            for step in 0...6 {
                let angle = Double.pi * (1.25 + 0.5 * Double(step) / 6)
                let point = (cx + radius * cos(angle), cy + radius * sin(angle))
                if let previous { line(previous.0, previous.1, point.0, point.1, thickness: 1.4, ink) }
                previous = point
            }
        }
    }

    /// A stepper (− | +) ending at `right`, centred on `centerY`; its two halves are labelled as
    /// Icons (buttons drawn with a glyph: Screen Recognition has no stepper class). Returns its left edge.
    mutating func stepper(right: Double, centerY: Double) -> Double {
        let w = 94.0, h = 32.0, x = right - w, y = centerY - h / 2
        fillRounded(x, y, w, h, radius: 8, .solid(theme.fill))
        fillRect(x + w / 2, y + 7, 1 / u, h - 14, theme.separator.mixed(with: theme.secondaryText, 0.3))
        let ink = theme.primaryText, glyph = 14.0, t = 1.6
        for half in 0..<2 {
            let cx = x + w / 4 + Double(half) * w / 2
            line(cx - glyph / 2, centerY, cx + glyph / 2, centerY, thickness: t, ink)
            if half == 1 { line(cx, centerY - glyph / 2, cx, centerY + glyph / 2, thickness: t, ink) }
            label(.icon, x: cx - glyph / 2 - 2, y: centerY - glyph / 2 - 2, width: glyph + 4, height: glyph + 4, clickable: true)
        }
        return x - 10
    }

    /// An action sheet over the dimmed screen: an optional title, two to four choices (a
    /// destructive one in red) and Cancel apart below; the whole sheet is the Dialog, its lines Text.
    mutating func actionSheet() {
        let rowHeight = 57.0, gap = 8.0, x = 8.0, w = width - 16
        let choices = int(2...4), titled = chance(0.5)
        let titleHeight = titled ? 44.0 : 0
        let groupHeight = titleHeight + Double(choices) * rowHeight
        let h = groupHeight + gap + rowHeight
        let y = height - theme.device.bottomInset - 8 - h
        let modal = beginModal(x, y, w, h)
        var choiceLabels: [Int] = []
        fillRounded(x, y, w, groupHeight, radius: 13, .solid(modalSurface))
        fillRounded(x, y + groupHeight + gap, w, rowHeight, radius: 13, .solid(theme.dark ? RGBA(28, 28, 30) : .white))
        var top = y
        if titled {
            if let title = fitting(phrase(int(2...6)), factor: 1, maxWidth: w - 32) {
                let size = measure(title, factor: 1)
                text(title, x: x + (w - size.width) / 2, centerY: top + titleHeight / 2, factor: 1, color: theme.secondaryText)
            }
            top += titleHeight
        }
        let destructive = chance(0.5) ? int(0...(choices - 1)) : -1
        for index in 0..<choices {
            if index > 0 || titled { separator(x: x, y: top, width: w) }
            let option = index == destructive ? pick(Array(words.destructive).sorted()) : pick(words.buttonLabels)
            let size = measure(option, factor: 3), centerY = top + rowHeight / 2
            let ink = index == destructive ? RGBA(255, 59, 48) : theme.accent
            choiceLabels += labelIndex {
                $0.text(option, x: x + (w - size.width) / 2, centerY: centerY, factor: 3, color: ink, clickable: true)
            }
            top += rowHeight
        }
        let cancel = words.dialogButtons[0][0]
        let size = measure(cancel, factor: 3, bold: true), cancelY = y + groupHeight + gap + rowHeight / 2, accent = theme.accent
        choiceLabels += labelIndex {
            $0.text(cancel, x: x + (w - size.width) / 2, centerY: cancelY, factor: 3, color: accent, bold: true, clickable: true)
        }
        endModal(modal, x, y, w, h, apart: choiceLabels)
    }
}
