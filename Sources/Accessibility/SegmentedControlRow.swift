/// §5.1: "In 99.1% of the screens in our dataset, every Text on the same row of SCs is
/// contained by a SC. … we find Text detections on the same row of detected SCs but not
/// contained by any SC. Our heuristics update these Text elements as Segmented Controls."
public enum SegmentedControlRow {
    /// Texts on the row of a Segmented Control become Segmented Controls (segments the
    /// detector missed); a Text inside a Segmented Control joins it as its label (our choice:
    /// the paper only implies the pairing, and a reader should not announce the segment and its
    /// text twice). Then each row's segments get "segment i of n", left to right.
    ///
    /// "Same row" (our reading): the Text's vertical middle lies within the control's height.
    public static func apply(_ elements: [AccessibleElement], options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
        let controls = elements.indices.filter { elements[$0].role == .segmentedControl }
        guard !controls.isEmpty else { return elements }
        var labels: [Int: [Int]] = [:]  // control → texts inside it
        var promoted = Set<Int>()
        for t in elements.indices where elements[t].role == .text {
            let box = elements[t].box
            if let control = controls.first(where: { box.isInside(elements[$0].box, fraction: options.insideFraction) }) {
                labels[control, default: []].append(t)
            } else if controls.contains(where: { box.centerY >= elements[$0].box.minY && box.centerY <= elements[$0].box.maxY }) {
                promoted.insert(t)
            }
        }
        let groups = labels.map { control, texts in
            ElementGroup(indices: [control] + texts, kind: "Segmented Control", grouping: .segmentedControlRow)
        }
        var result = elements
        for t in promoted {
            result[t].kind = "Segmented Control"
            result[t].grouping = .segmentedControlRow
        }
        return numberSegments(result.regrouped(groups))
    }

    /// "segment i of n" on every Segmented Control, counted along its row (controls whose
    /// vertical middles lie within each other's heights share a row).
    static func numberSegments(_ elements: [AccessibleElement]) -> [AccessibleElement] {
        let segments = elements.indices.filter { elements[$0].role == .segmentedControl }.sorted { elements[$0].box.minY < elements[$1].box.minY }
        var rows = UnionFind(count: segments.count)
        for a in segments.indices {
            for b in (a + 1)..<segments.count {
                let upper = elements[segments[a]].box, lower = elements[segments[b]].box
                guard lower.minY <= upper.maxY else { break }  // sorted by top: nothing later shares the row
                if lower.centerY <= upper.maxY || upper.centerY >= lower.minY { rows.link(a, b) }
            }
        }
        var result = elements
        for row in rows.groups() {
            let ordered = row.map { segments[$0] }.sorted { elements[$0].box.minX < elements[$1].box.minX }
            for (position, index) in ordered.enumerated() { result[index].labelHint = "segment \(position + 1) of \(ordered.count)" }
        }
        return result
    }
}
