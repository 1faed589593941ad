import Imaging

/// Controls and pictures; every function draws one element and labels it with its drawn extent.
extension ScreenBuilder {
    /// A photo-like picture: a gradient with a sun and hills, soft blobs, or stripes.
    mutating func picture(x: Double, y: Double, width w: Double, height h: Double, radius: Double, labelled: Bool = true) {
        let colors = theme.pictureColors(&rng)
        let style = int(0...3)
        let from = CanvasPoint(x * u, y * u), to = CanvasPoint((x + w * uniform(0.3, 1)) * u, (y + h) * u)
        fillRounded(x, y, w, h, radius: radius, .linearGradient(from: from, to: to, stops: [colors[0], colors[1]]))
        // Decorations stay inside a margin of the rounded corners so they never leave the picture.
        let inset = max(radius * 0.3, 0)
        let ix = x + inset, iy = y + inset, iw = w - 2 * inset, ih = h - 2 * inset
        guard iw > 4, ih > 4 else { if labelled { label(.picture, x: x, y: y, width: w, height: h) }; return }
        switch style {
        case 0:  // landscape
            let sun = min(iw, ih) * uniform(0.08, 0.16)
            fillCircle(ix + iw * uniform(0.55, 0.85), iy + ih * uniform(0.2, 0.35), sun, .solid(RGBA(255, 240, 200, 220)))
            let dark = colors[1].mixed(with: .black, 0.35)
            polygon([(ix, iy + ih), (ix + iw * uniform(0.2, 0.45), iy + ih * uniform(0.35, 0.6)), (ix + iw * 0.75, iy + ih)], dark)
            polygon([(ix + iw * 0.35, iy + ih), (ix + iw * uniform(0.6, 0.85), iy + ih * uniform(0.45, 0.7)), (ix + iw, iy + ih * 0.8), (ix + iw, iy + ih)],
                    dark.mixed(with: .black, 0.25))
        case 1:  // soft blobs
            for _ in 0..<int(2...4) {
                let r = min(iw, ih) * uniform(0.12, 0.3)
                let cx = uniform(ix + r, max(ix + iw - r, ix + r + 0.1)), cy = uniform(iy + r, max(iy + ih - r, iy + r + 0.1))
                fillCircle(cx, cy, r, .solid(RGBA.white.withOpacity(uniform(0.15, 0.4))))
            }
        case 2:  // stripes
            let count = int(3...6)
            for i in 0..<count where i % 2 == 0 {
                fillRect(ix, iy + ih * Double(i) / Double(count), iw, ih / Double(count), colors[0].mixed(with: .white, 0.25).withOpacity(0.5))
            }
        default:  // radial glow
            image.fill(.roundedRect(x: x * u, y: y * u, width: w * u, height: h * u, radius: radius * u),
                       with: .radialGradient(center: CanvasPoint((ix + iw * 0.3) * u, (iy + ih * 0.3) * u), radius: max(iw, ih) * u,
                                             stops: [colors[0].mixed(with: .white, 0.5), colors[0], colors[1].mixed(with: .black, 0.3)]))
        }
        if labelled { label(.picture, x: x, y: y, width: w, height: h) }
    }

    /// A round avatar picture with a person silhouette.
    mutating func avatar(x: Double, y: Double, size: Double) {
        let colors = theme.pictureColors(&rng)
        let r = size / 2
        fillCircle(x + r, y + r, r, .linearGradient(from: CanvasPoint(x * u, y * u), to: CanvasPoint((x + size) * u, (y + size) * u), stops: colors))
        fillCircle(x + r, y + size * 0.4, size * 0.18, .solid(RGBA.white.withOpacity(0.75)))
        image.fill(.ellipse(centerX: (x + r) * u, centerY: (y + size * 0.86) * u, radiusX: size * 0.3 * u, radiusY: size * 0.2 * u),
                   color: RGBA.white.withOpacity(0.75))
        label(.picture, x: x, y: y, width: size, height: size)
    }

    /// iOS-style switch, 51 × 31 points.
    mutating func toggle(x: Double, y: Double, on: Bool) {
        let w = 51.0, h = 31.0
        fillRounded(x, y, w, h, radius: h / 2, .solid(on ? theme.toggleOn : theme.fill.mixed(with: theme.secondaryText, theme.dark ? 0.2 : 0.12)))
        let thumbX = on ? x + w - h / 2 : x + h / 2
        if theme.cardShadows { fillCircle(thumbX, y + h / 2 + 1, h / 2 - 2, .solid(RGBA(0, 0, 0, 30))) }
        fillCircle(thumbX, y + h / 2, h / 2 - 2, .solid(.white))
        label(on ? .toggleSelected : .toggleUnselected, x: x, y: y, width: w, height: h, selected: on, clickable: true)
    }

    /// A square or round checkbox; checked ones are filled with the accent colour and a white tick.
    mutating func checkbox(x: Double, y: Double, size: Double, checked: Bool) {
        let radius = theme.roundCheckboxes ? size / 2 : size * 0.22
        if checked {
            fillRounded(x, y, size, size, radius: radius, .solid(theme.accent))
            let t = max(size * 0.11, 1.5 / u)
            line(x + size * 0.26, y + size * 0.52, x + size * 0.43, y + size * 0.7, thickness: t, .white)
            line(x + size * 0.43, y + size * 0.7, x + size * 0.75, y + size * 0.32, thickness: t, .white)
        } else {
            strokeRounded(x, y, size, size, radius: radius, thickness: max(1.6, size * 0.08), theme.secondaryText)
        }
        label(checked ? .checkboxSelected : .checkboxUnselected, x: x, y: y, width: size, height: size, selected: checked, clickable: true)
    }

    /// A slider: thin track filled with the accent up to a round thumb. Box: track length × thumb height.
    mutating func slider(x: Double, y: Double, width w: Double) {
        let thumb = 28.0, track = 4.0
        let value = uniform(0.1, 0.9)
        let thumbX = x + thumb / 2 + (w - thumb) * value
        let trackY = y + thumb / 2 - track / 2
        fillRounded(x, trackY, w, track, radius: track / 2, .solid(theme.fill.mixed(with: theme.secondaryText, 0.3)))
        fillRounded(x, trackY, thumbX - x, track, radius: track / 2, .solid(theme.accent))
        fillCircle(thumbX, y + thumb / 2 + 1, thumb / 2, .solid(RGBA(0, 0, 0, 40)))
        fillCircle(thumbX, y + thumb / 2, thumb / 2 - 0.5, .solid(.white))
        label(.slider, x: x, y: y, width: w, height: thumb, clickable: true)
    }

    /// A segmented control; each segment is labelled as a Segmented Control (as in Screen Recognition,
    /// where the segment's title is not a separate Text).
    mutating func segmentedControl(x: Double, y: Double, width w: Double, titles: [String]) {
        let h = 32.0
        let selected = int(0...(titles.count - 1))
        fillRounded(x, y, w, h, radius: 8, .solid(theme.fill))
        let segment = w / Double(titles.count)
        for (index, title) in titles.enumerated() {
            let sx = x + segment * Double(index)
            if index == selected {
                fillRounded(sx + 2, y + 2, segment - 4, h - 4, radius: 7, .solid(theme.dark ? RGBA(99, 99, 102) : .white))
            } else if index > 0 && index - 1 != selected {
                fillRect(sx, y + 8, 1 / u, h - 16, theme.separator)
            }
            let factor = measure(title, factor: 2).width <= segment - 8 ? 2 : 1
            let size = measure(title, factor: factor)
            text(title, x: sx + (segment - size.width) / 2, centerY: y + h / 2, factor: factor, color: theme.primaryText, bold: index == selected, labelled: false)
            label(.segmentedControl, x: sx, y: y, width: segment, height: h, selected: index == selected, clickable: true)
        }
    }

    /// A row of page dots centred on `centerX`; the whole row is one Page Control.
    mutating func pageControl(centerX: Double, y: Double, count: Int, onDark: Bool) {
        let dot = 7.0, gap = 9.0
        let w = Double(count) * dot + Double(count - 1) * gap
        let x0 = centerX - w / 2
        let current = int(0...(count - 1))
        let base: RGBA = onDark ? .white : theme.primaryText
        for i in 0..<count {
            fillCircle(x0 + dot / 2 + Double(i) * (dot + gap), y + dot / 2, dot / 2, .solid(base.withOpacity(i == current ? 0.95 : 0.35)))
        }
        label(.pageControl, x: x0, y: y, width: w, height: dot, clickable: true)
    }

    /// A text field with placeholder text (part of the field, not a separate Text).
    mutating func textField(x: Double, y: Double, width w: Double, placeholder: String, searchIcon: Bool = false) {
        let h = searchIcon ? 36.0 : 44.0
        let radius = min(theme.cornerRadius, h / 2)
        if searchIcon || theme.dark || chance(0.5) {
            fillRounded(x, y, w, h, radius: radius, .solid(theme.fill))
        } else {
            fillRounded(x, y, w, h, radius: radius, .solid(theme.surface))
            strokeRounded(x, y, w, h, radius: radius, thickness: 1, theme.separator.mixed(with: theme.secondaryText, 0.3))
        }
        var textX = x + 12
        if searchIcon {
            icon(.search, x: x + 9, y: y + h / 2 - 8, size: 16, color: theme.secondaryText, surface: theme.fill, labelled: false)
            textX += 18
        }
        if let fitted = fitting(placeholder, factor: 2, maxWidth: w - (textX - x) - 10) {
            text(fitted, x: textX, centerY: y + h / 2, factor: 2, color: theme.secondaryText, labelled: false)
        }
        label(.textField, x: x, y: y, width: w, height: h, clickable: true)
    }

    /// A filled button labelled as a Container holding its Text.
    mutating func button(x: Double, y: Double, width w: Double, title: String, filled: Bool = true) {
        let h = 48.0
        let element = beginElement()  // the button: its Container and title
        defer { endElement(element) }
        if filled {
            fillRounded(x, y, w, h, radius: min(theme.cornerRadius + 4, h / 2), .solid(theme.accent))
        } else {
            strokeRounded(x, y, w, h, radius: min(theme.cornerRadius + 4, h / 2), thickness: 1.5, theme.accent)
        }
        let size = measure(title, factor: 2, bold: true)
        text(title, x: x + (w - size.width) / 2, centerY: y + h / 2, factor: 2, color: filled ? .white : theme.accent, bold: true, clickable: true)
        label(.container, x: x, y: y, width: w, height: h, clickable: true)
    }

    /// A card or row background; the caller labels it as a Container after drawing its content.
    mutating func cardBackground(x: Double, y: Double, width w: Double, height h: Double, radius: Double) {
        if theme.cardShadows {
            // Only a band along the outline shows once the card covers the middle: stroking it
            // instead of filling saves blending every pixel of the card twice.
            strokeRounded(x, y + 2, w, h, radius: radius, thickness: 4, RGBA(0, 0, 0, 14))
            strokeRounded(x - 0.5, y + 0.5, w + 1, h + 1, radius: radius, thickness: 2, RGBA(0, 0, 0, 10))
        }
        fillRounded(x, y, w, h, radius: radius, .solid(theme.surface))
    }
}
