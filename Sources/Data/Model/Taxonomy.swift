/// A named, ordered list of classes.
public struct Taxonomy: Equatable {
    public var name: String
    public var classes: [String]

    public init(name: String, classes: [String]) {
        self.name = name
        self.classes = classes
    }

    public func index(of className: String) -> Int? { classes.firstIndex(of: className) }

    /// The 13 classes of Screen Recognition (Zhang et al., CHI 2021, Table 1), in the paper's order.
    public static let screenRecognition = Taxonomy(name: "screen-recognition", classes: [
        "Checkbox (Selected)", "Checkbox (Unselected)", "Container", "Dialog", "Icon", "Page Control",
        "Picture", "Segmented Control", "Slider", "Text", "Text Field", "Toggle (Selected)", "Toggle (Unselected)",
    ])
}
