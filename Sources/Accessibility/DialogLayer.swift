/// An alert floats over the screen: what lies on it belongs to it, not to the card, picture or
/// line it happens to cover. Grouping rules compare elements' layers so nothing is grouped
/// across an alert's edge (our rule; the paper's heuristics do not mention dialogs).
enum DialogLayer {
    /// For each element, the smallest Dialog (an index into `elements`) it lies inside by
    /// `insideFraction` — a Dialog lies on itself — or nil for the screen behind.
    static func of(_ elements: [AccessibleElement], options: AccessibilityOptions) -> [Int?] {
        let dialogs = elements.indices.filter { elements[$0].role == .dialog && elements[$0].grouping == nil }
            .sorted { (elements[$0].box.area, $0) < (elements[$1].box.area, $1) }
        guard !dialogs.isEmpty else { return elements.map { _ in nil } }
        return elements.indices.map { i in
            elements[i].role == .dialog && elements[i].grouping == nil ? i
                : dialogs.first { elements[i].box.isInside(elements[$0].box, fraction: options.insideFraction) }
        }
    }
}
