/// §5.5 Container Grouping: "We group a Container detection with all detections inside it as
/// one element."
public enum ContainerGrouping {
    /// Each Container with the elements inside it as one "Container" element, hinted
    /// "n items". Largest Containers first, so an outer Container takes a nested one with its
    /// contents and every element lands in one group.
    ///
    /// Our readings: "inside" is `insideFraction` of an element's area (of a group's union box
    /// when earlier heuristics grouped it); a Container with nothing inside, or covering more
    /// than `maximumContainerFraction` of the screen, stays a plain element. Tab Buttons are
    /// never taken: datasets that box the tab bar itself as a Container (vins-ui maps
    /// Bottom_Navigation to Container) would otherwise fold the tabs into one stop, losing
    /// "tab i of n" — the bar stays an element before its tabs. Nor is a Dialog, or what lies
    /// inside one, by a Container that is not on that dialog itself (`DialogLayer`): an alert
    /// floats over the card it covers, and it is read first, on its own
    /// (`AccessibilityView.navigationOrder`), not as one of the card's items.
    public static func apply(_ elements: [AccessibleElement], screen: ScreenSize, options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
        let screenArea = screen.width * screen.height
        let layer = DialogLayer.of(elements, options: options)
        let containers = elements.indices
            .filter { elements[$0].role == .container && elements[$0].grouping == nil }
            .filter { screenArea <= 0 || elements[$0].box.area <= options.maximumContainerFraction * screenArea }
            .sorted { elements[$0].box.area > elements[$1].box.area }
        guard !containers.isEmpty else { return elements }
        var taken = [Bool](repeating: false, count: elements.count)
        var groups: [ElementGroup] = []
        for container in containers where !taken[container] {
            let outer = elements[container].box
            let inside = elements.indices.filter { i in
                i != container && !taken[i] && layer[i] == layer[container] && elements[i].grouping != .tabButton
                    && elements[i].box.isInside(outer, fraction: options.insideFraction)
            }
            guard !inside.isEmpty else { continue }
            taken[container] = true
            inside.forEach { taken[$0] = true }
            groups.append(ElementGroup(indices: [container] + inside, kind: "Container", grouping: .container,
                                       labelHint: "\(inside.count) item\(inside.count == 1 ? "" : "s")"))
        }
        return elements.regrouped(groups)
    }
}
