/// One labelled UI element on a screen.
public struct Annotation: Equatable, Hashable, Codable {
    /// Index into the dataset's class list.
    public var classIndex: Int
    public var box: BoundingBox
    /// Optional element state where the source labels it (checkbox/toggle on, tappable).
    public var selected: Bool?
    public var clickable: Bool?

    public init(classIndex: Int, box: BoundingBox, selected: Bool? = nil, clickable: Bool? = nil) {
        self.classIndex = classIndex
        self.box = box
        self.selected = selected
        self.clickable = clickable
    }
}
