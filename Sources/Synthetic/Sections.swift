import Imaging

/// Content blocks stacked down the screen. Each takes the top `y` and the lowest usable `bottom`
/// (points), draws only when it fits, and returns the next free y (nil when it did not fit).
extension ScreenBuilder {
    var contentWidth: Double { width - 2 * theme.margin }

    /// Rows of a table: each row a Container holding an optional avatar/badge icon, title and
    /// subtitle Text and a trailing chevron Icon, value Text or (settings) toggle.
    mutating func listRows(y: Double, bottom: Double, settings: Bool) -> Double? {
        let m = theme.margin, rowH = theme.rowHeight
        let grouped = theme.cornerRadius > 0 && chance(0.7)
        var y = y
        if settings || chance(0.35) {
            let header = settings ? pick(words.screenTitles).uppercased() : phrase(int(1...3))
            guard y + 28 + rowH <= bottom else { return nil }
            text(header, x: m + (grouped ? 4 : 0), y: y + 8, factor: settings ? 1 : 2, color: settings ? theme.secondaryText : theme.primaryText, bold: !settings)
            y += settings ? 24 : 32
        }
        let rows = min(int(2...7), Int((bottom - y) / rowH))
        guard rows >= 1 else { return nil }
        let x = grouped ? m : 0, w = grouped ? contentWidth : width
        if grouped {
            cardBackground(x: x, y: y, width: w, height: Double(rows) * rowH, radius: theme.cornerRadius)
        } else if theme.background != theme.surface {
            fillRect(x, y, w, Double(rows) * rowH, theme.surface)
        }
        let leading = settings ? (chance(0.8) ? 2 : 0) : int(0...2)  // 0 none, 1 avatar, 2 badge icon
        let twoLines = !settings && chance(0.6)
        for row in 0..<rows {
            let element = beginElement()  // the row: its Container with everything in it
            defer { endElement(element) }
            let top = y + Double(row) * rowH
            var textX = x + m
            if leading == 1 {
                let size = min(rowH - 12, 44)
                avatar(x: textX, y: top + (rowH - size) / 2, size: size)
                textX += size + 12
            } else if leading == 2 {
                icon(pick(IconGlyph.tabs), x: textX, y: top + rowH / 2 - 15, size: 30, color: .white, badge: theme.pictureColors(&rng)[0].mixed(with: .black, 0.1))
                textX += 30 + 12
            }
            var trailingX = x + w - m
            var trailing = settings ? (chance(0.22, drawing: .toggleSelected, .toggleUnselected) ? 3 : int(0...2)) : int(0...2)
            if settings && trailing != 3 && theme.style == .ios && chance(0.12) { trailing = 4 }  // no draw in the mixed style
            switch trailing {
            case 4:
                trailingX = stepper(right: trailingX, centerY: top + rowH / 2)
            case 3:
                toggle(x: trailingX - 51, y: top + (rowH - 31) / 2, on: selected(0.38, .toggleSelected, .toggleUnselected))
                trailingX -= 51 + 8
            case 1:
                icon(.forward, x: trailingX - 14, y: top + rowH / 2 - 7, size: 14, color: theme.secondaryText, surface: theme.surface)
                trailingX -= 22
                if chance(0.4) { trailingX = trailingValue(right: trailingX, centerY: top + rowH / 2) }
            case 2:
                trailingX = trailingValue(right: trailingX, centerY: top + rowH / 2)
            default: break
            }
            let title = settings ? pick(words.rowLabels) : (leading == 1 ? pick(words.names) : phrase(int(1...4)))
            let maxWidth = trailingX - textX - 8
            if twoLines, let fitted = fitting(title, factor: 2, maxWidth: maxWidth) {
                text(fitted, x: textX, y: top + rowH / 2 - 17, factor: 2, color: theme.primaryText, bold: chance(0.3))
                if let sub = fitting(phrase(int(3...8)), factor: 1, maxWidth: maxWidth) {
                    text(sub, x: textX, y: top + rowH / 2 + 5, factor: 1, color: theme.secondaryText)
                }
            } else if let fitted = fitting(title, factor: 2, maxWidth: maxWidth) {
                text(fitted, x: textX, centerY: top + rowH / 2, factor: 2, color: theme.primaryText)
            }
            if row < rows - 1 { separator(x: textX, y: top + rowH, width: x + w - textX) }
            label(.container, x: x, y: top, width: w, height: rowH, clickable: true)
        }
        return y + Double(rows) * rowH + 16
    }

    private mutating func trailingValue(right: Double, centerY: Double) -> Double {
        let value = pick(words.shortInfo)
        let size = measure(value, factor: 1)
        text(value, x: right - size.width, centerY: centerY, factor: 1, color: theme.secondaryText)
        return right - size.width - 8
    }

    /// A feed card: optional author header, a picture, a title, a subtitle and action icons.
    mutating func feedCard(y: Double, bottom: Double) -> Double? {
        let m = theme.margin, w = contentWidth
        let pictureH = (w * uniform(0.45, 0.7)).rounded()
        let header = chance(0.5)
        let h = (header ? 52 : 0) + pictureH + 74 + (chance(0.5) ? 36 : 0)
        guard y + h <= bottom else { return nil }
        let r = theme.cornerRadius
        let element = beginElement()  // the card: its Container with everything in it
        defer { endElement(element) }
        cardBackground(x: m, y: y, width: w, height: h, radius: r)
        var top = y
        if header {
            avatar(x: m + 12, y: top + 10, size: 32)
            text(pick(words.names), x: m + 54, y: top + 12, factor: 1, color: theme.primaryText, bold: true)
            text(pick(words.shortInfo), x: m + 54, y: top + 28, factor: 1, color: theme.secondaryText)
            icon(.more, x: m + w - 34, y: top + 16, size: 20, color: theme.secondaryText, surface: theme.surface)
            top += 52
        }
        let inset = r > 0 && chance(0.5) ? 0.0 : 12.0
        picture(x: m + inset, y: top + (header ? 0 : inset), width: w - 2 * inset, height: pictureH - (header ? 0 : inset),
                radius: inset > 0 ? max(r - 4, 0) : (header ? 0 : r))
        top += pictureH + 10
        if let title = fitting(phrase(int(2...6)), factor: 2, maxWidth: w - 24, bold: true) {
            text(title, x: m + 12, y: top, factor: 2, color: theme.primaryText, bold: true)
        }
        if let sub = fitting(phrase(int(4...9)), factor: 1, maxWidth: w - 24) {
            text(sub, x: m + 12, y: top + 24, factor: 1, color: theme.secondaryText)
        }
        top += 44
        if h - (top - y) >= 36 {
            var ix = m + 12
            for glyph in [IconGlyph.heart, .chat, .share, .bookmark].prefix(int(2...4)) {
                icon(glyph, x: ix, y: top + 4, size: 22, color: theme.primaryText.withOpacity(0.8), surface: theme.surface)
                ix += 38
            }
        }
        label(.container, x: m, y: y, width: w, height: h, clickable: true)
        return y + h + 14
    }

    /// A wide picture carousel with page dots over or under it.
    mutating func carousel(y: Double, bottom: Double) -> Double? {
        let full = chance(0.5)
        let x = full ? 0 : theme.margin, w = full ? width : contentWidth
        let h = (w * uniform(0.5, 0.75)).rounded()
        let below = chance(0.5)
        guard y + h + (below ? 24 : 0) <= bottom else { return nil }
        picture(x: x, y: y, width: w, height: h, radius: full ? 0 : theme.cornerRadius)
        if chance(0.4) {
            fillRounded(x, y + h - 40, w, 40, radius: 0, .linearGradient(from: CanvasPoint(0, (y + h - 40) * u), to: CanvasPoint(0, (y + h) * u),
                                                                          stops: [RGBA(0, 0, 0, 0), RGBA(0, 0, 0, 90)]))
        }
        pageControl(centerX: width / 2, y: below ? y + h + 10 : y + h - 18, count: int(3...7), onDark: !below || theme.dark)
        return y + h + (below ? 28 : 12)
    }

    /// A heading and a few lines of body text (each line one Text, like detections per line).
    mutating func paragraph(y: Double, bottom: Double) -> Double? {
        let m = theme.margin
        let lines = int(2...6)
        let factor = chance(0.6) ? 1 : 2
        let lineH = lineHeight(factor) + (factor == 1 ? 6 : 8)
        let h = 40 + Double(lines) * lineH
        guard y + h <= bottom else { return nil }
        if let heading = fitting(phrase(int(2...5)), factor: theme.titleFactor, maxWidth: contentWidth, bold: true) {
            text(heading, x: m, y: y, factor: theme.titleFactor, color: theme.primaryText, bold: true)
        }
        var top = y + lineHeight(theme.titleFactor) + 10
        let body = beginElement()  // the body's lines are one multi-line Text
        defer { endElement(body) }
        for i in 0..<lines {
            let maxWidth = i == lines - 1 ? contentWidth * uniform(0.3, 0.9) : contentWidth
            if let line = fitting(phrase(int(8...16)), factor: factor, maxWidth: maxWidth) {
                text(line, x: m, y: top, factor: factor, color: theme.primaryText.withOpacity(0.85))
            }
            top += lineH
        }
        return top + 10
    }

    /// Pictures in 2 or 3 columns, each with a caption (and sometimes a price or detail line).
    mutating func grid(y: Double, bottom: Double) -> Double? {
        let m = theme.margin, gap = 10.0
        let columns = int(2...3)
        let cell = ((contentWidth - gap * Double(columns - 1)) / Double(columns)).rounded(.down)
        let pictureH = cell * (chance(0.5) ? 1 : 1.3)
        let detail = chance(0.5)
        let rowH = pictureH + (detail ? 44 : 28)
        let rows = min(int(1...3), Int((bottom - y) / (rowH + gap)))
        guard rows >= 1 else { return nil }
        for row in 0..<rows {
            for column in 0..<columns {
                let x = m + Double(column) * (cell + gap), top = y + Double(row) * (rowH + gap)
                // The cell is its picture with the caption lines under it (picture subtitle,
                // §5.5); a favourite button on the picture is a control of its own, read after.
                let element = beginElement()
                var favourite: [Int] = []
                defer { endElement(element, apart: favourite) }
                picture(x: x, y: top, width: cell, height: pictureH, radius: theme.cornerRadius)
                if chance(0.25) { favourite = labelIndex { $0.icon(.heart, x: x + cell - 28, y: top + 8, size: 20, color: .white, labelled: true) } }
                if let caption = fitting(phrase(int(1...3)), factor: 1, maxWidth: cell) {
                    text(caption, x: x, y: top + pictureH + 8, factor: 1, color: theme.primaryText, bold: true)
                }
                if detail { text(pick(words.shortInfo), x: x, y: top + pictureH + 24, factor: 1, color: theme.secondaryText) }
            }
        }
        return y + Double(rows) * (rowH + gap) + 6
    }

    /// A row of round shortcut icons with captions (stories, categories).
    mutating func shortcutRow(y: Double, bottom: Double) -> Double? {
        let count = int(4...5)
        let slot = width / Double(count), size = 48.0
        guard y + size + 28 <= bottom else { return nil }
        let pictures = chance(0.5)
        for i in 0..<count {
            let element = beginElement()  // a shortcut: its picture or icon with the caption under it
            defer { endElement(element) }
            let cx = slot * (Double(i) + 0.5)
            if pictures {
                avatar(x: cx - size / 2, y: y, size: size)
            } else {
                fillCircle(cx, y + size / 2, size / 2, .solid(theme.fill))
                icon(pick(IconGlyph.tabs), x: cx - 13, y: y + size / 2 - 13, size: 26, color: theme.accent, surface: theme.fill)
            }
            if let caption = fitting(pick(pictures ? words.names : words.screenTitles).components(separatedBy: " ")[0], factor: 1, maxWidth: slot - 6) {
                let w = measure(caption, factor: 1).width
                text(caption, x: cx - w / 2, y: y + size + 8, factor: 1, color: theme.primaryText)
            }
        }
        return y + size + 34
    }

    mutating func searchField(y: Double, bottom: Double) -> Double? {
        guard y + 36 <= bottom else { return nil }
        textField(x: theme.margin, y: y, width: contentWidth, placeholder: words.searchPrefix + pick(words.filler), searchIcon: true)
        return y + 36 + 14
    }

    mutating func segmentedSection(y: Double, bottom: Double) -> Double? {
        guard y + 32 <= bottom else { return nil }
        segmentedControl(x: theme.margin, y: y, width: contentWidth, titles: pick(words.segmentLabels))
        return y + 32 + 16
    }

    /// A brightness- or volume-style slider between two small icons, with a caption above.
    mutating func sliderRow(y: Double, bottom: Double) -> Double? {
        let m = theme.margin
        guard y + 64 <= bottom else { return nil }
        text(pick(words.sliderCaptions), x: m, y: y, factor: 1, color: theme.secondaryText)
        let withIcons = chance(0.6)
        let sx = m + (withIcons ? 30 : 0), sw = contentWidth - (withIcons ? 60 : 0)
        let mark = elements.count
        if withIcons {
            icon(.clock, x: m, y: y + 26, size: 18, color: theme.secondaryText)
            icon(.clock, x: m + contentWidth - 22, y: y + 24, size: 22, color: theme.secondaryText)
        }
        slider(x: sx, y: y + 20, width: sw)
        // Read left to right: the small icon, the slider, the large icon.
        if elements.count - mark == 3 { arrangeElements(since: mark, [mark, mark + 2, mark + 1]) }
        return y + 64
    }

    /// Labelled text fields, optional checkboxes and a button.
    mutating func form(y: Double, bottom: Double, fields: Int, checkboxes: Int, buttonTitle: String?) -> Double? {
        let m = theme.margin
        var top = y
        let fieldH = 44.0 + 24
        let need = Double(fields) * fieldH + Double(checkboxes) * 36 + (buttonTitle == nil ? 0 : 64)
        guard y + need <= bottom else { return nil }
        var entries = words.fieldLabels.filter { !usedFieldTitles.contains($0.0) }
        for _ in 0..<fields where !entries.isEmpty {
            let (title, placeholder) = entries.remove(at: int(0...(entries.count - 1)))
            usedFieldTitles.insert(title)
            text(title, x: m, y: top, factor: 1, color: theme.secondaryText, bold: true)
            textField(x: m, y: top + 16, width: contentWidth, placeholder: placeholder)
            top += fieldH
        }
        for _ in 0..<checkboxes {
            let element = beginElement()  // a checkbox and its tappable caption are one control
            checkbox(x: m, y: top + 4, size: 22, checked: selected(0.35, .checkboxSelected, .checkboxUnselected))
            if let caption = fitting(pick(words.checkboxCaptions),
                                     factor: 2, maxWidth: contentWidth - 34) {
                text(caption, x: m + 34, centerY: top + 15, factor: 2, color: theme.primaryText, clickable: true)
            }
            endElement(element)
            top += 36
        }
        if let buttonTitle {
            button(x: m, y: top + 8, width: contentWidth, title: buttonTitle)
            top += 64
        }
        return top + 8
    }

    /// To-do style rows: a checkbox and a line of text, each row a Container.
    mutating func checklist(y: Double, bottom: Double) -> Double? {
        let m = theme.margin, rowH = max(theme.rowHeight - 8, 44)
        let rows = min(int(2...5), Int((bottom - y) / rowH))
        guard rows >= 1 else { return nil }
        for row in 0..<rows {
            let element = beginElement()  // the row: its Container, checkbox and text
            defer { endElement(element) }
            let top = y + Double(row) * rowH
            checkbox(x: m, y: top + (rowH - 24) / 2, size: 24, checked: selected(0.3, .checkboxSelected, .checkboxUnselected))
            if let line = fitting(phrase(int(2...6)), factor: 2, maxWidth: contentWidth - 40) {
                text(line, x: m + 38, centerY: top + rowH / 2, factor: 2, color: theme.primaryText)
            }
            separator(x: m + 38, y: top + rowH, width: width - m - 38)
            label(.container, x: 0, y: top, width: width, height: rowH, clickable: true)
        }
        return y + Double(rows) * rowH + 12
    }
}
