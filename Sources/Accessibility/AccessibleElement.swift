import Imaging

/// One stop for a screen reader: a single detection, or detections grouped by one of the
/// paper's heuristics (§5.5), which the reader presents as one element with the members'
/// concatenated text.
public struct AccessibleElement: Equatable, Sendable {
    /// A class name ("Text", "Icon", …), or "Tab Button" / "Segmented Control" where a
    /// heuristic decided what the group is.
    public var kind: String
    /// Which heuristic made the element; nil for a detection presented as it is.
    public var grouping: Grouping?
    /// Indices into the screen's detections. Ordered by XY-cut once `NavigationOrder` ran
    /// (§5.6: "Within grouped elements, we also apply the XY-cut algorithm to order sub-elements").
    public var members: [Int]
    /// The union of the members' boxes.
    public var box: BoundingBox
    /// What a reader could announce beside the content: "tab 2 of 4", "selected", "2 lines".
    public var labelHint: String?

    public init(kind: String, grouping: Grouping?, members: [Int], box: BoundingBox, labelHint: String? = nil) {
        self.kind = kind; self.grouping = grouping; self.members = members; self.box = box; self.labelHint = labelHint
    }

    /// A detection presented on its own; Checkbox and Toggle classes give their state.
    public init(detection index: Int, of detections: [ScreenDetection]) {
        let detection = detections[index]
        var hint: String?
        if case let .stateful(selected) = detection.role { hint = selected ? "selected" : "not selected" }
        self.init(kind: detection.className, grouping: nil, members: [index], box: detection.box, labelHint: hint)
    }

    public enum Grouping: String, Sendable {
        case segmentedControlRow = "segmented control row"
        case textLines = "text lines"
        case tabButton = "tab button"
        case container
        case pictureSubtitle = "picture subtitle"
    }

    /// How the heuristics treat the element: a single detection by its class, a group by the
    /// kind it was given (multi-line text is still Text to the subtitle rule, §5.5).
    public var role: DetectionRole { DetectionRole(className: kind) }

    /// Several elements as one, with `kind` and `grouping`; members keep the order given.
    static func merging(_ parts: [AccessibleElement], kind: String, grouping: Grouping, labelHint: String? = nil) -> AccessibleElement {
        AccessibleElement(kind: kind, grouping: grouping, members: parts.flatMap(\.members),
                          box: parts.dropFirst().reduce(parts[0].box) { $0.union($1.box) }, labelHint: labelHint)
    }
}
