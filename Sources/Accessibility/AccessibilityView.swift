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
        elements = TextLines.apply(elements)
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
    public static func navigationOrder(_ elements: [AccessibleElement], detections: [ScreenDetection], screen: ScreenSize,
                                       options: AccessibilityOptions = AccessibilityOptions()) -> [AccessibleElement] {
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
