import Imaging

/// §5.5 Picture Subtitle Grouping: "We group Text T1 as a descriptive subtitle with Picture P
/// if they satisfy: 1) they have 50%+ x-overlap with P, 2) T1 has a y-distance to P less than
/// a threshold (we chose 0.03 * screen height), and 3) T1 is closer to P than to any other
/// detection below T1. We additionally group a second line of Text T2 below T1 if it
/// satisfies the same conditions in relation to T1."
public enum PictureSubtitle {
    /// Each Picture with the nearest Text that is its subtitle (and that Text's second line)
    /// as one "Picture" element.
    ///
    /// Our readings: the x-overlap is measured against the narrower box (`subtitleXOverlap`);
    /// "below" is `BoundingBox.hasBelow`; rule 3 compares with the elements below T1 that share
    /// its x-range (something far to the side is not what T1 could caption); a multi-line Text
    /// already grouped counts as one T1; a Text two Pictures could claim goes to the nearer; a
    /// Text and a Picture on different layers (`DialogLayer`: an alert's button just under the
    /// picture it covers) are not a subtitle and its picture.
    public static func apply(_ elements: [AccessibleElement], screen: ScreenSize, options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
        let pictures = elements.indices.filter { elements[$0].role == .picture && elements[$0].grouping == nil }
        let texts = elements.indices.filter { elements[$0].role == .text }
        guard !pictures.isEmpty, !texts.isEmpty else { return elements }
        let byTop = elements.indices.sorted { elements[$0].box.minY < elements[$1].box.minY }
        let tops = byTop.map { elements[$0].box.minY }
        let layer = DialogLayer.of(elements, options: options)

        // Rule 1–3 for a text under `above`: its gap, or nil when it is not a subtitle of it.
        func subtitleGap(_ text: Int, under above: Int) -> Double? {
            let t = elements[text].box, a = elements[above].box
            guard layer[text] == layer[above], a.hasBelow(t), t.xOverlap(a) >= options.subtitleXOverlap * min(t.width, a.width), min(t.width, a.width) > 0 else { return nil }
            let gap = a.gap(toBelow: t)
            guard gap < options.subtitleGap * screen.height else { return nil }
            // Rule 3: only elements starting within `gap` under T1 could be nearer.
            let end = TextLines.firstIndex(in: tops, notBelow: (t.maxY + max(gap, 0)).nextUp)
            let start = TextLines.firstIndex(in: tops, notBelow: t.minY)
            for other in byTop[start..<max(start, end)] where other != text && other != above {
                let o = elements[other].box
                if t.hasBelow(o), t.xOverlap(o) > 0, t.gap(toBelow: o) <= gap { return nil }
            }
            return gap
        }

        var claimed: [Int: (text: Int, gap: Double)] = [:]  // picture → its nearest subtitle
        for text in texts {
            let candidates = pictures.compactMap { p in subtitleGap(text, under: p).map { (p, $0) } }
            guard let (picture, gap) = candidates.min(by: { $0.1 < $1.1 }) else { continue }
            if let current = claimed[picture], current.gap <= gap { continue }
            claimed[picture] = (text, gap)
        }
        var used = Set(claimed.values.map(\.text))
        var groups: [ElementGroup] = []
        for picture in pictures {
            guard let first = claimed[picture]?.text else { continue }
            var indices = [picture, first]
            let second = texts.filter { !used.contains($0) }
                .compactMap { t in subtitleGap(t, under: first).map { (t, $0) } }
                .min { $0.1 < $1.1 }
            if let (line, _) = second { indices.append(line); used.insert(line) }
            groups.append(ElementGroup(indices: indices, kind: "Picture", grouping: .pictureSubtitle))
        }
        return elements.regrouped(groups)
    }
}
