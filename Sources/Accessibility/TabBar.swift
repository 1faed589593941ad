/// §5.5 Tab Grouping: "We group Icon and Text detections into Tab Buttons by 1) finding the
/// bottom-most detection B; 2) determining if a Text or Icon detection D is in the tab bar if D
/// is in the bottom 20% of the screen, and B.bottom − D.top is within a threshold (0.08 *
/// screen height) so that D is not much higher than B; 3) grouping Icon and Text detections
/// that have x-overlap together, and determined to be in the tab bar, as one Tab Button."
public enum TabBar {
    /// Tab-bar Icons and Texts grouped into "Tab Button"s, labelled "tab i of n" left to right.
    ///
    /// Our readings: "in the bottom 20%" means D's top is; an Icon or Text alone in its column
    /// is a Tab Button too (icon-only tab bars); fewer than `minimumTabs` buttons is not a tab
    /// bar and changes nothing. Tab selection comes from tint colours in the paper (§5.3),
    /// which detections alone do not give.
    public static func apply(_ elements: [AccessibleElement], screen: ScreenSize, options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
        let items = tabBarItems(elements, screen: screen, options: options)
        guard !items.isEmpty else { return elements }
        // Items sorted by left edge: an item overlaps in x only with a run of the ones after it.
        let byLeft = items.sorted { elements[$0].box.minX < elements[$1].box.minX }
        var columns = UnionFind(count: byLeft.count)
        var reach = -Double.infinity, reachOwner = 0
        for (position, item) in byLeft.enumerated() {
            let box = elements[item].box
            if position > 0, box.minX < reach { columns.link(reachOwner, position) }
            if box.maxX > reach { reach = box.maxX; reachOwner = position }
        }
        let tabs = columns.groups().map { $0.map { byLeft[$0] } }
        guard tabs.count >= options.minimumTabs else { return elements }
        let groups = tabs.enumerated().map { position, members in
            ElementGroup(indices: members, kind: "Tab Button", grouping: .tabButton, labelHint: "tab \(position + 1) of \(tabs.count)")
        }
        return elements.regrouped(groups)
    }

    /// Indices of the Icons and Texts in the tab bar (rules 1 and 2).
    static func tabBarItems(_ elements: [AccessibleElement], screen: ScreenSize, options: AccessibilityOptions) -> [Int] {
        guard screen.height > 0, let bottom = elements.map(\.box.maxY).max() else { return [] }
        let top = screen.height * (1 - options.tabBarBottomFraction)
        return elements.indices.filter { i in
            let element = elements[i]
            guard element.grouping == nil, element.role == .text || element.role == .icon else { return false }
            return element.box.minY >= top && bottom - element.box.minY <= options.tabBarReach * screen.height
        }
    }
}
