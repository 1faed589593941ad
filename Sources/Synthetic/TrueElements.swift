import Data

/// The accessibility structure the generator knows and a detector does not: which labels a
/// screen reader should present as one element, and the order a person reads those elements
/// in. Screen Recognition's order figure (§5.6: 73.7 % of screens in perfect order) was scored
/// against experts' orders; on synthetic screens the generator records them where it composes
/// each section, so the heuristics can be measured on any number of screens.
///
/// Every label belongs to exactly one element; a label made outside `beginElement`/`endElement`
/// is an element of its own. Elements are recorded in reading order: sections top to bottom
/// as `composeScreen` stacks them, each section's elements as a sighted reader takes them
/// (rows top to bottom, a row left to right); where drawing order differs from reading order
/// the section rearranges (`arrangeElements`). None of this draws or draws random numbers, so
/// pixels and labels stay as they were.
extension ScreenBuilder {
    /// Starts an element: the labels made until `endElement(token)` join it. Returns nil (and
    /// the labels join the outer element) when one is already open.
    mutating func beginElement() -> Int? {
        guard openElement == nil else { return nil }
        openElement = annotations.count
        return openElement
    }

    /// Ends the element `token` began. Labels in `apart` (indices made inside it) are separate
    /// elements read right after it: a favourite button on a grid picture, a dialog's buttons.
    mutating func endElement(_ token: Int?, apart: [Int] = []) {
        guard let start = token else { return }
        openElement = nil
        let members = (start..<annotations.count).filter { !apart.contains($0) }
        if !members.isEmpty { elements.append(members) }
        for index in apart where (start..<annotations.count).contains(index) { elements.append([index]) }
    }

    /// The label a drawing call is about to make, as the `apart` list wants it: `[index]` when
    /// `body` labelled something (one label), `[]` when it drew nothing labelled.
    mutating func labelIndex(of body: (inout ScreenBuilder) -> Void) -> [Int] {
        let index = annotations.count
        body(&self)
        return annotations.count > index ? [index] : []
    }

    /// Puts the elements recorded since position `mark` in the order `positions` gives
    /// (absolute positions, each of `mark..<elements.count` once).
    mutating func arrangeElements(since mark: Int, _ positions: [Int]) {
        precondition(positions.sorted() == Array(mark..<elements.count), "arrangeElements must list each recent element once")
        elements.replaceSubrange(mark..., with: positions.map { elements[$0] })
    }

    /// Removes the labels `hidden` selects, keeping the elements' references to the others
    /// (elements left without a label disappear).
    mutating func removeLabels(where hidden: (Annotation) -> Bool) {
        var newIndex = [Int?](repeating: nil, count: annotations.count)
        var kept: [Annotation] = []
        for (index, annotation) in annotations.enumerated() where !hidden(annotation) {
            newIndex[index] = kept.count
            kept.append(annotation)
        }
        annotations = kept
        elements = elements.map { $0.compactMap { newIndex[$0] } }.filter { !$0.isEmpty }
    }
}
