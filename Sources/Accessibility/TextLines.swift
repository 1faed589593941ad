import Imaging

/// §5.5 Text Grouping: "We group a Text T1 with a Text below T2 if they satisfy: 1) they have
/// x-overlap, and 2) the y-distance between the two texts should be less than a threshold –
/// we choose min(T1.height, T2.height). We do this repetitively to group multi-line text."
public enum TextLines {
    /// Each Text linked to the nearest Text below it that meets both rules; linked Texts
    /// become one "Text" element, hinted "n lines".
    ///
    /// Our readings: "below" is `BoundingBox.hasBelow` (lines may overlap by a few pixels, as
    /// detections of adjacent lines do); each Text links only to its nearest such line, so a
    /// paragraph chains line by line; Texts other heuristics already grouped (tab labels,
    /// segments) are left alone; and two lines join only when the same Container or Dialog
    /// holds both (the smallest one each lies inside — a Container only if `ContainerGrouping`
    /// could group it — or none). List rows are often closer than a line height, and without
    /// that rule a row's subtitle chained to the next row's title until a whole list was one
    /// Text no row could take; an alert's buttons chained to the line behind it.
    public static func apply(_ elements: [AccessibleElement], screen: ScreenSize = ScreenSize(width: 0, height: 0),
                             options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
        let texts = elements.indices.filter { elements[$0].grouping == nil && elements[$0].role == .text }
            .sorted { (elements[$0].box.minY, elements[$0].box.minX) < (elements[$1].box.minY, elements[$1].box.minX) }
        guard texts.count > 1 else { return elements }
        let holder = innermostContainer(of: texts, in: elements, screen: screen, options: options)
        let tops = texts.map { elements[$0].box.minY }
        var lines = UnionFind(count: texts.count)
        for (a, upperIndex) in texts.enumerated() {
            let upper = elements[upperIndex].box
            // A line below starts before `upper.maxY + upper.height` (its gap is under our
            // height): only the texts sorted into that window are looked at.
            let end = firstIndex(in: tops, notBelow: upper.maxY + upper.height)
            var nearest: (position: Int, gap: Double)?
            for b in (a + 1)..<max(a + 1, end) {
                let lower = elements[texts[b]].box
                guard upper.hasBelow(lower), upper.xOverlap(lower) > 0, holder[a] == holder[b] else { continue }
                let gap = upper.gap(toBelow: lower)
                guard gap < min(upper.height, lower.height) else { continue }
                if nearest == nil || gap < nearest!.gap { nearest = (b, gap) }
            }
            if let nearest { lines.link(a, nearest.position) }
        }
        let groups = lines.groups().filter { $0.count > 1 }.map { set in
            ElementGroup(indices: set.map { texts[$0] }, kind: "Text", grouping: .textLines, labelHint: "\(set.count) lines")
        }
        return elements.regrouped(groups)
    }

    /// For each of `texts`, the smallest Dialog, or Container `ContainerGrouping` could group,
    /// that holds it (an index into `elements`), or nil.
    static func innermostContainer(of texts: [Int], in elements: [AccessibleElement], screen: ScreenSize,
                                   options: AccessibilityOptions) -> [Int?] {
        let screenArea = screen.width * screen.height
        let containers = elements.indices
            .filter { elements[$0].grouping == nil }
            .filter { elements[$0].role == .dialog || elements[$0].role == .container
                && (screenArea <= 0 || elements[$0].box.area <= options.maximumContainerFraction * screenArea) }
            .sorted { (elements[$0].box.area, $0) < (elements[$1].box.area, $1) }
        guard !containers.isEmpty else { return texts.map { _ in nil } }
        return texts.map { text in containers.first { elements[text].box.isInside(elements[$0].box, fraction: options.insideFraction) } }
    }

    /// The first position whose value is ≥ `limit` in ascending `values` (binary search).
    static func firstIndex(in values: [Double], notBelow limit: Double) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < limit { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
