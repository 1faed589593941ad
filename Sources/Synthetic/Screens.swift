import Imaging

/// Whole screens: chrome plus content sections chosen by the screen kind.
extension ScreenBuilder {
    mutating func composeScreen(kind: ScreenKind, dialogProbability: Double) {
        let fullBleed = kind == .player || kind == .login
        if let fill = theme.navigationBarFill, !fullBleed {
            fillRect(0, 0, width, statusBarHeight + 44, fill)
            statusBar(onDark: true)
        } else {
            statusBar()
        }
        let tabs = theme.tabBar && !fullBleed && kind != .form
        let bottom = height - (tabs ? tabBarHeight : theme.device.bottomInset) - 8
        switch kind {
        case .player: playerScreen(bottom: bottom)
        case .login: loginScreen(bottom: bottom)
        default:
            let title = kind == .settings ? pick(words.settingsTitles)
                : pick(words.screenTitles)
            let top = navigationBar(title: title, back: kind == .form || kind == .article || chance(0.35))
            fillSections(kind: kind, top: top, bottom: bottom)
        }
        if tabs { tabBar() } else { homeIndicator() }
        if chance(dialogProbability, drawing: .dialog) {
            // iOS apps ask as often with an action sheet from the bottom as with a centred alert.
            if theme.style == .ios && chance(0.45) { actionSheet() } else { dialog() }
        }
    }

    /// Stacks sections of the kind's repertoire until two in a row do not fit.
    private mutating func fillSections(kind: ScreenKind, top: Double, bottom: Double) {
        var y = top
        var misses = 0
        var first = true
        while misses < 2 && y < bottom - 30 {
            let next: Double?
            switch kind {
            case .feed:
                if first && chance(0.3, drawing: .segmentedControl) { next = chance(0.5, drawing: .segmentedControl) ? segmentedSection(y: y, bottom: bottom) : shortcutRow(y: y, bottom: bottom) }
                else if first && chance(0.35, drawing: .pageControl) { next = carousel(y: y, bottom: bottom) }
                else if first && chance(0.3) { next = searchField(y: y, bottom: bottom) }
                else { next = chance(0.85) ? feedCard(y: y, bottom: bottom) : shortcutRow(y: y, bottom: bottom) }
            case .list:
                if first && chance(0.55) { next = searchField(y: y, bottom: bottom) }
                else if first && chance(0.3, drawing: .segmentedControl) { next = segmentedSection(y: y, bottom: bottom) }
                else if chance(0.1, drawing: .checkboxSelected, .checkboxUnselected) { next = checklist(y: y, bottom: bottom) }
                else { next = listRows(y: y, bottom: bottom, settings: false) }
            case .settings:
                if chance(0.08, drawing: .slider) { next = sliderRow(y: y, bottom: bottom) }
                else { next = listRows(y: y, bottom: bottom, settings: true) }
            case .form:
                if first && chance(0.3, drawing: .segmentedControl) { next = segmentedSection(y: y, bottom: bottom) }
                else if first || chance(0.3, drawing: .textField) {
                    next = form(y: y, bottom: bottom, fields: int(1...3), checkboxes: chance(0.5, drawing: .checkboxSelected, .checkboxUnselected) ? int(1...2) : 0,
                                buttonTitle: chance(0.5) ? pick(words.buttonLabels) : nil)
                } else { next = chance(0.5) ? paragraph(y: y, bottom: bottom) : listRows(y: y, bottom: bottom, settings: false) }
            case .article:
                if first && chance(0.8, drawing: .pageControl) { next = carousel(y: y, bottom: bottom) }
                else if !first && extraChance(0.3, drawing: .pageControl) { next = carousel(y: y, bottom: bottom) }
                else if chance(0.55) { next = paragraph(y: y, bottom: bottom) }
                else { next = chance(0.5) ? listRows(y: y, bottom: bottom, settings: false) : grid(y: y, bottom: bottom) }
            case .gallery:
                if first && chance(0.25, drawing: .segmentedControl) { next = segmentedSection(y: y, bottom: bottom) }
                else if first && chance(0.4, drawing: .pageControl) { next = carousel(y: y, bottom: bottom) }
                else if !first && extraChance(0.3, drawing: .pageControl) { next = carousel(y: y, bottom: bottom) }
                else { next = chance(0.85) ? grid(y: y, bottom: bottom) : shortcutRow(y: y, bottom: bottom) }
            case .player, .login:
                next = nil
            }
            first = false
            if let next { y = next; misses = 0; continue }
            misses += 1
            // A block that did not fit: try one that shrinks to the space left (fewer rows).
            let filler = kind == .gallery ? grid(y: y, bottom: bottom) : listRows(y: y, bottom: bottom, settings: kind == .settings)
            if let filler { y = filler }
        }
    }

    /// Now-playing: artwork, titles, a progress slider with times, transport icons.
    private mutating func playerScreen(bottom: Double) {
        let m = 28.0
        let top = statusBarHeight + 8
        icon(.back, x: 16, y: top + 4, size: 24, color: theme.primaryText)
        icon(.more, x: width - 40, y: top + 4, size: 24, color: theme.primaryText)
        let art = width - 2 * m
        picture(x: m, y: top + 48, width: art, height: art, radius: theme.cornerRadius)
        var y = top + 48 + art + 24
        text(pick(words.screenTitles) + words.separator + phrase(int(1...2)).lowercased(), x: m, y: y, factor: theme.titleFactor, color: theme.primaryText, bold: true)
        y += lineHeight(theme.titleFactor) + 8
        text(pick(words.names), x: m, y: y, factor: 2, color: theme.secondaryText)
        icon(.heart, x: width - m - 24, y: y - 8, size: 24, color: theme.accent)
        y += 36
        slider(x: m, y: y, width: width - 2 * m)
        text("1:\(int(10...59))", x: m, y: y + 32, factor: 1, color: theme.secondaryText)
        let remaining = "-2:\(int(10...59))"
        text(remaining, x: width - m - measure(remaining, factor: 1).width, y: y + 32, factor: 1, color: theme.secondaryText)
        y += 64
        let controls: [(IconGlyph, Double)] = [(.back, 32), (chance(0.5) ? .play : .pause, 44), (.forward, 32)]
        for (i, control) in controls.enumerated() {
            let cx = width * (0.25 + 0.25 * Double(i))
            icon(control.0, x: cx - control.1 / 2, y: y + (44 - control.1) / 2, size: control.1, color: theme.primaryText)
        }
        y += 60
        if y + 28 <= bottom && chance(0.5, drawing: .slider) { slider(x: m + 30, y: y, width: width - 2 * m - 60) }
    }

    /// Sign-in: logo, welcome texts, fields, optional remember-me checkbox, button and links.
    private mutating func loginScreen(bottom: Double) {
        let m = theme.margin + 8
        var y = statusBarHeight + 40
        if chance(0.5) {
            icon(pick(IconGlyph.tabs), x: width / 2 - 36, y: y, size: 72, color: .white, badge: theme.accent)
        } else {
            picture(x: width / 2 - 40, y: y, width: 80, height: 80, radius: 20)
        }
        y += 104
        let title = words.welcome(theme.name)
        if let fitted = fitting(title, factor: theme.titleFactor, maxWidth: width - 2 * m, bold: true) {
            let w = measure(fitted, factor: theme.titleFactor, bold: true).width
            text(fitted, x: (width - w) / 2, y: y, factor: theme.titleFactor, color: theme.primaryText, bold: true)
        }
        y += lineHeight(theme.titleFactor) + 10
        if let sub = fitting(phrase(int(4...7)), factor: 1, maxWidth: width - 2 * m) {
            let w = measure(sub, factor: 1).width
            text(sub, x: (width - w) / 2, y: y, factor: 1, color: theme.secondaryText)
        }
        y += 36
        var x = m
        let fieldWidth = width - 2 * m
        for placeholder in words.loginFields {
            textField(x: x, y: y, width: fieldWidth, placeholder: placeholder)
            y += 56
        }
        if chance(0.55, drawing: .checkboxSelected, .checkboxUnselected) {
            let element = beginElement()  // a checkbox and its tappable caption are one control
            checkbox(x: x, y: y, size: 22, checked: selected(0.3, .checkboxSelected, .checkboxUnselected))
            text(words.checkboxCaptions[0], x: x + 32, centerY: y + 11, factor: 2, color: theme.primaryText, clickable: true)
            endElement(element)
            y += 38
        }
        button(x: x, y: y, width: fieldWidth, title: pick(words.signInButtons))
        y += 64
        for link in words.loginLinks where y + 20 <= bottom {
            let w = measure(link, factor: 2).width
            text(link, x: (width - w) / 2, y: y, factor: 2, color: theme.accent, clickable: true)
            y += 32
        }
        if y + 60 <= bottom && chance(0.5) {
            x = width / 2 - 3 * 28
            for glyph in [IconGlyph.mail, .person, .star] {
                fillCircle(x + 20, y + 20, 20, .solid(theme.fill))
                icon(glyph, x: x + 9, y: y + 9, size: 22, color: theme.primaryText, surface: theme.fill)
                x += 64
            }
        }
    }
}
