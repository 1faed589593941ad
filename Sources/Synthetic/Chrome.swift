import Data
import Imaging

/// System and app chrome: status bar, navigation bar, tab bar, alert dialog.
extension ScreenBuilder {
    var statusBarHeight: Double { theme.device.statusBarHeight }
    var tabBarHeight: Double { theme.device.tabBarHeight }

    /// Time, signal and battery; unlabelled, as in Screen Recognition's data.
    mutating func statusBar(onDark: Bool? = nil) {
        let ink: RGBA = (onDark ?? theme.dark) ? .white : .black
        if theme.device.classic { return classicStatusBar(ink: ink) }
        text("9:41", x: 28, centerY: 25, factor: 2, color: ink, bold: true, labelled: false)
        for i in 0..<4 {
            let h = 4 + Double(i) * 2.5
            fillRounded(width - 88 + Double(i) * 5, 30 - h, 3.5, h, radius: 1, .solid(ink))
        }
        strokeRounded(width - 52, 19, 25, 12, radius: 3.5, thickness: 1, ink.withOpacity(0.45))
        fillRounded(width - 50, 21, 17, 8, radius: 2, .solid(ink))
        fillRounded(width - 26.5, 23, 1.5, 4, radius: 0.7, .solid(ink.withOpacity(0.45)))
    }

    /// The navigation bar below the status bar; returns the y where content starts.
    mutating func navigationBar(title: String, back: Bool) -> Double {
        let top = statusBarHeight, barHeight = 44.0
        let m = theme.margin
        let start = elements.count
        // On a filled bar title and icons are white; a large title sits below it, on the background.
        let barInk = theme.navigationBarFill == nil ? theme.accent : .white
        let titleInk = theme.navigationBarFill == nil ? theme.primaryText : .white
        if back { icon(.back, x: m - 4, y: top + 10, size: 24, color: barInk, surface: theme.navigationBarFill) }
        let toolbar = elements.count
        var right = width - m
        for _ in 0..<int(0...2) {
            let glyph = pick(IconGlyph.toolbar)
            icon(glyph, x: right - 24, y: top + 10, size: 24, color: barInk, surface: theme.navigationBarFill)
            right -= 36
        }
        // Toolbar icons are drawn right to left; a reader takes them left to right, after the
        // title when it sits between them and before a large title on the line below.
        let titleMark = elements.count
        let backButton = Array(start..<toolbar), icons = Array((toolbar..<titleMark).reversed())
        if theme.largeTitles {
            let factor = theme.largeTitleFactor
            if let fitted = fitting(title, factor: factor, maxWidth: width - 2 * m, bold: true) {
                text(fitted, x: m, y: top + barHeight + 4, factor: factor, color: theme.primaryText, bold: true)
            }
            arrangeElements(since: start, backButton + icons + Array(titleMark..<elements.count))
            return top + barHeight + 4 + lineHeight(factor) + 12
        }
        if let fitted = fitting(title, factor: theme.titleFactor, maxWidth: width - 2 * (width - right) - 8, bold: true) {
            let size = measure(fitted, factor: theme.titleFactor, bold: true)
            text(fitted, x: (width - size.width) / 2, centerY: top + barHeight / 2, factor: theme.titleFactor, color: titleInk, bold: true)
        }
        arrangeElements(since: start, backButton + Array(titleMark..<elements.count) + icons)
        if !theme.dark && theme.navigationBarFill == nil && chance(0.5) { separator(x: 0, y: top + barHeight, width: width) }
        return top + barHeight + 8
    }

    /// The bottom tab bar: each item is an Icon and a Text (Screen Recognition splits Tab Bar Items so).
    mutating func tabBar() {
        let top = height - tabBarHeight
        fillRect(0, top, width, tabBarHeight, theme.dark ? RGBA(22, 22, 24) : RGBA(249, 249, 251))
        separator(x: 0, y: top, width: width)
        let count = theme.tabCount
        let slot = width / Double(count)
        let selected = int(0...(count - 1))
        var glyphs = IconGlyph.tabs
        for i in 0..<count {
            let glyph = glyphs.remove(at: int(0...(glyphs.count - 1)))
            let color = i == selected ? theme.accent : theme.secondaryText
            let cx = slot * (Double(i) + 0.5)
            let element = beginElement()  // a tab button: its icon and title (§5.5 tab grouping)
            defer { endElement(element) }
            icon(glyph, x: cx - 13, y: top + 6, size: 26, color: color, surface: theme.dark ? RGBA(22, 22, 24) : RGBA(249, 249, 251))
            let title = pick(words.screenTitles)
            if let fitted = fitting(title, factor: 1, maxWidth: slot - 4) {
                let size = measure(fitted, factor: 1)
                text(fitted, x: cx - size.width / 2, y: top + 36, factor: 1, color: color, clickable: true)
            }
        }
        homeIndicator()
    }

    mutating func homeIndicator() {
        guard !theme.device.classic else { return }  // a home button, below the screen
        fillRounded(width / 2 - 67, height - 8 - 5, 134, 5, radius: 2.5, .solid(theme.dark ? .white : .black))
    }

    /// Dims the screen and draws a centred alert. Labels more than half hidden by the alert are
    /// dropped; the others shrink to their visible part (see `visibleExtent`).
    mutating func dialog() {
        let w = 270.0, x = (width - w) / 2
        let pick = int(0...(words.dialogTitles.count - 1))
        let title = words.dialogTitles[pick], buttons = words.dialogButtons[pick]
        let messageLines = int(1...3)
        let lineHeight = lineHeight(1) + 4
        let buttonHeight = 44.0
        let h = 20 + 18 + 8 + Double(messageLines) * lineHeight + 14 + buttonHeight
        let y = (height - h) / 2 - 20
        // The alert's element: its title and message with the Dialog box; its buttons are their own.
        let modal = beginModal(x, y, w, h)
        var buttonLabels: [Int] = []
        fillRounded(x, y, w, h, radius: 14, .solid(modalSurface))
        let titleSize = measure(title, factor: 2, bold: true)
        text(title, x: x + (w - titleSize.width) / 2, y: y + 20, factor: 2, color: theme.primaryText, bold: true)
        var lineY = y + 20 + 18 + 8
        for _ in 0..<messageLines {
            if let line = fitting(phrase(int(3...7)), factor: 1, maxWidth: w - 32) {
                let size = measure(line, factor: 1)
                text(line, x: x + (w - size.width) / 2, y: lineY, factor: 1, color: theme.primaryText)
            }
            lineY += lineHeight
        }
        let buttonTop = y + h - buttonHeight
        separator(x: x, y: buttonTop, width: w)
        let slot = w / Double(buttons.count)
        for (i, title) in buttons.enumerated() {
            if i > 0 { fillRect(x + slot * Double(i), buttonTop, 1 / u, buttonHeight, theme.separator) }
            let size = measure(title, factor: 2, bold: i == buttons.count - 1)
            let color = words.destructive.contains(title) ? RGBA(255, 59, 48) : theme.accent
            buttonLabels += labelIndex {
                $0.text(title, x: x + slot * Double(i) + (slot - size.width) / 2, centerY: buttonTop + buttonHeight / 2, factor: 2,
                        color: color, bold: i == buttons.count - 1, clickable: true)
            }
        }
        endModal(modal, x, y, w, h, apart: buttonLabels)
    }

    /// A modal panel (alert, action sheet) about to be drawn at (x, y, w, h) points: dims the
    /// screen, drops the labels the panel hides more than half of and shrinks the others to their
    /// visible part (`visibleExtent`) — before the panel's own labels exist — and opens its element.
    mutating func beginModal(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> (behind: Int, element: Int?) {
        image.fill(.rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)), color: RGBA(0, 0, 0, 100))
        let hidden = BoundingBox(x: x * u, y: y * u, width: w * u, height: h * u)
        removeLabels { Self.intersectionFraction($0.box, hidden) > 0.5 }
        for i in annotations.indices { annotations[i].box = Self.visibleExtent(of: annotations[i].box, under: hidden) }
        return (elements.count, beginElement())
    }

    /// Labels the panel as the Dialog and closes its element (`apart`: its buttons, elements of
    /// their own). The panel is in front, so a person reads it first: its elements go before
    /// what shows around it, which keeps its order.
    mutating func endModal(_ modal: (behind: Int, element: Int?), _ x: Double, _ y: Double, _ w: Double, _ h: Double, apart: [Int]) {
        label(.dialog, x: x, y: y, width: w, height: h)
        endElement(modal.element, apart: apart)
        arrangeElements(since: 0, Array(modal.behind..<elements.count) + Array(0..<modal.behind))
    }

    var modalSurface: RGBA { theme.dark ? RGBA(44, 44, 46) : RGBA(248, 248, 250) }

    /// The bounding box of the part of `box` that `cover` leaves visible. Only a cover spanning
    /// the box's whole width (or height) and one of its ends changes it: a cover over a corner
    /// or the middle leaves an L- or two-piece shape whose bounding box is the whole box.
    static func visibleExtent(of box: BoundingBox, under cover: BoundingBox) -> BoundingBox {
        let spansX = cover.minX <= box.minX && cover.maxX >= box.maxX, spansY = cover.minY <= box.minY && cover.maxY >= box.maxY
        var visible = box
        if spansX && cover.maxY > box.minY && cover.minY < box.maxY {
            if cover.minY <= box.minY { visible = BoundingBox(minX: box.minX, minY: cover.maxY, maxX: box.maxX, maxY: box.maxY) }
            else if cover.maxY >= box.maxY { visible = BoundingBox(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: cover.minY) }
        } else if spansY && cover.maxX > box.minX && cover.minX < box.maxX {
            if cover.minX <= box.minX { visible = BoundingBox(minX: cover.maxX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) }
            else if cover.maxX >= box.maxX { visible = BoundingBox(minX: box.minX, minY: box.minY, maxX: cover.minX, maxY: box.maxY) }
        }
        return visible.width > 0 && visible.height > 0 ? visible : box
    }

    private static func intersectionFraction(_ box: BoundingBox, _ cover: BoundingBox) -> Double {
        let iw = min(box.maxX, cover.maxX) - max(box.minX, cover.minX), ih = min(box.maxY, cover.maxY) - max(box.minY, cover.minY)
        return iw > 0 && ih > 0 && box.area > 0 ? iw * ih / box.area : 0
    }
}
