import Imaging

/// What a screen reader would present for one screen: the detections, grouped by the paper's
/// heuristics and put in navigation order (Screen Recognition, Zhang et al. CHI 2021, §5.1,
/// 5.5, 5.6).
public struct AccessibilityView: Equatable, Sendable {
    public var screen: ScreenSize
    public var detections: [ScreenDetection]
    /// In navigation order; each element's members in their own XY-cut order.
    public var elements: [AccessibleElement]

    /// The heuristics in this order (the paper does not give one): segmented-control rows
    /// (§5.1) and tab bars first, since they claim Texts for controls before text grouping
    /// could join them to content above; then multi-line text, so a two-line caption is one
    /// subtitle; then picture subtitles; containers last, so they take whole groups; with the
    /// screenshot, the selected tab by its tint (§5.3, `TabSelection`); then XY-cut (§5.6) over
    /// the groups (`navigationOrder`). Detections with a non-finite coordinate are left out of
    /// every element.
    public init(detections: [ScreenDetection], screen: ScreenSize, image: RGBImage? = nil, options: AccessibilityOptions = AccessibilityOptions()) {
        self.screen = screen
        self.detections = detections
        var elements = detections.indices.filter { detections[$0].box.isFinite }.map { AccessibleElement(detection: $0, of: detections) }
        elements = SegmentedControlRow.apply(elements, options: options)
        elements = TabBar.apply(elements, screen: screen, options: options)
        elements = TextLines.apply(elements, screen: screen, options: options)
        elements = PictureSubtitle.apply(elements, screen: screen, options: options)
        elements = ContainerGrouping.apply(elements, screen: screen, options: options)
        if let image { elements = TabSelection.apply(elements, image: image) }
        self.elements = Self.navigationOrder(elements, detections: detections, screen: screen, options: options)
    }

    /// Elements by XY-cut over their boxes (with `cutSlack` of the screen height as slack), and
    /// each group's members by XY-cut over theirs — except a Container's own detection, which
    /// comes first: its box spans all the others, so XY-cut could not cut inside it, and it is
    /// what the group is.
    ///
    /// A Container too large to group (`maximumContainerFraction`) would block every cut through
    /// the part of the screen it covers, leaving it ordered by tops alone; it is left out of the
    /// XY-cut and read just before the first element inside it (Fig. 7 right: such a detection
    /// is one the paper would rather remove).
    ///
    /// Our choice, which the paper's heuristics do not cover: a Dialog is modal — a screen
    /// reader keeps its focus inside an alert until it is dismissed, and a person reads the
    /// alert before what it dims — so each Dialog comes first, followed by the elements inside
    /// it in their own XY-cut order (a dialog inside another is read in place there), and the
    /// rest of the screen after, ordered as if the dialogs were not there. In place, XY-cut
    /// would read a centred alert between the rows it covers (on synthetic screens with the
    /// `rare-controls` mix that was most order errors).
    public static func navigationOrder(_ elements: [AccessibleElement], detections: [ScreenDetection], screen: ScreenSize,
                                       options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
        let dialogs = elements.indices.filter { elements[$0].role == .dialog && elements[$0].grouping == nil }
        guard !dialogs.isEmpty else { return screenOrder(elements, detections: detections, screen: screen, options: options) }
        // Largest first, so a dialog inside another's box (an alert over a sheet) goes with the outer one.
        var owner = [Int?](repeating: nil, count: elements.count)
        for dialog in dialogs.sorted(by: { (elements[$0].box.area, $1) > (elements[$1].box.area, $0) }) where owner[dialog] == nil {
            owner[dialog] = dialog
            for i in elements.indices where owner[i] == nil && elements[i].box.isInside(elements[dialog].box, fraction: options.insideFraction) {
                owner[i] = dialog
            }
        }
        let fronts = dialogs.filter { owner[$0] == $0 }
        var ordered: [AccessibleElement] = []
        for front in XYCut.order(fronts.map { elements[$0].box }, slack: 0, maximumDepth: options.maximumCutDepth).map({ fronts[$0] }) {
            ordered += screenOrder([elements[front]], detections: detections, screen: screen, options: options)
            let inside = elements.indices.filter { owner[$0] == front && $0 != front }.map { elements[$0] }
            ordered += screenOrder(inside, detections: detections, screen: screen, options: options)
        }
        return ordered + screenOrder(elements.indices.filter { owner[$0] == nil }.map { elements[$0] },
                                     detections: detections, screen: screen, options: options)
    }

    /// XY-cut over the elements with large Containers set aside (see `navigationOrder`).
    static func screenOrder(_ elements: [AccessibleElement], detections: [ScreenDetection], screen: ScreenSize,
                            options: AccessibilityOptions) -> [AccessibleElement] {
        let slack = max(0, options.cutSlack * screen.height), depth = options.maximumCutDepth
        func withMembersInOrder(_ element: AccessibleElement) -> AccessibleElement {
            var element = element
            let leading = element.grouping == .container ? 1 : 0
            let rest = Array(element.members.dropFirst(leading))
            if rest.count > 1 {
                element.members = element.members.prefix(leading) + XYCut.order(rest.map { detections[$0].box }, slack: slack, maximumDepth: depth).map { rest[$0] }
            }
            return element
        }
        let screenArea = screen.width * screen.height
        func isBackdrop(_ element: AccessibleElement) -> Bool {
            element.grouping == nil && element.role == .container && screenArea > 0 && element.box.area > options.maximumContainerFraction * screenArea
        }
        let others = elements.filter { !isBackdrop($0) }
        var ordered = XYCut.order(others.map(\.box), slack: slack, maximumDepth: depth).map { withMembersInOrder(others[$0]) }
        // Larger first: a backdrop inside another is then inserted after it.
        for backdrop in elements.filter(isBackdrop).sorted(by: { $0.box.area > $1.box.area }) {
            let position = ordered.firstIndex { $0.box.isInside(backdrop.box, fraction: options.insideFraction) && !isBackdrop($0) }
                ?? ordered.firstIndex { $0.box.minY > backdrop.box.minY } ?? ordered.count
            ordered.insert(backdrop, at: position)
        }
        return ordered
    }
}
