/// What a screen reader would present for one screen: the detections, grouped by the paper's
/// heuristics and put in navigation order (Screen Recognition, Zhang et al. CHI 2021, §5.1,
/// 5.5, 5.6).
public struct AccessibilityView: Equatable, Sendable {
    public var screen: ScreenSize
    public var detections: [ScreenDetection]
    /// In navigation order; each element's members in their own XY-cut order.
    public var elements: [AccessibleElement]

    /// The heuristics in this order: segmented-control rows (§5.1) and tab bars first, since
    /// they claim Texts for controls before text grouping could join them to content above;
    /// then multi-line text, so a two-line caption is one subtitle; then picture subtitles;
    /// containers last, so they take whole groups; then XY-cut (§5.6) over the groups.
    /// Detections with a non-finite coordinate are left out of every element.
    public init(detections: [ScreenDetection], screen: ScreenSize, options: AccessibilityOptions = AccessibilityOptions()) {
        self.screen = screen
        self.detections = detections
        var elements = detections.indices.filter { detections[$0].box.isFinite }.map { AccessibleElement(detection: $0, of: detections) }
        elements = SegmentedControlRow.apply(elements, options: options)
        elements = TabBar.apply(elements, screen: screen, options: options)
        elements = TextLines.apply(elements)
        elements = PictureSubtitle.apply(elements, screen: screen, options: options)
        elements = ContainerGrouping.apply(elements, screen: screen, options: options)
        self.elements = Self.navigationOrder(elements, detections: detections, maximumDepth: options.maximumCutDepth)
    }

    /// Elements by XY-cut over their boxes, and each group's members by XY-cut over theirs —
    /// except a Container's own detection, which comes first: its box spans all the others, so
    /// XY-cut could not cut inside it, and it is what the group is.
    public static func navigationOrder(_ elements: [AccessibleElement], detections: [ScreenDetection], maximumDepth: Int) -> [AccessibleElement] {
        XYCut.order(elements.map(\.box), maximumDepth: maximumDepth).map { index in
            var element = elements[index]
            let leading = element.grouping == .container ? 1 : 0
            let rest = Array(element.members.dropFirst(leading))
            if rest.count > 1 {
                element.members = element.members.prefix(leading) + XYCut.order(rest.map { detections[$0].box }, maximumDepth: maximumDepth).map { rest[$0] }
            }
            return element
        }
    }
}
