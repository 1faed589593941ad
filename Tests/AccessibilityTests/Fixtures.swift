import Imaging
@testable import Accessibility

/// Hand-built screens: detections by class name and box, as the detector would give them.
func detection(_ className: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double, score: Double = 0.9) -> ScreenDetection {
    ScreenDetection(classIndex: DetectionClass.index(of: className), className: className, box: BoundingBox(x: x, y: y, width: width, height: height), score: score)
}

/// One element per detection, as the pipeline starts.
func singles(_ detections: [ScreenDetection]) -> [AccessibleElement] {
    detections.indices.map { AccessibleElement(detection: $0, of: detections) }
}

/// Each element's members, sorted, in element order: what a grouping made, ignoring order.
func memberSets(_ elements: [AccessibleElement]) -> [[Int]] {
    elements.map { $0.members.sorted() }
}

enum DetectionClass {
    static let names = [
        "Checkbox (Selected)", "Checkbox (Unselected)", "Container", "Dialog", "Icon", "Page Control",
        "Picture", "Segmented Control", "Slider", "Text", "Text Field", "Toggle (Selected)", "Toggle (Unselected)",
    ]
    static func index(of name: String) -> Int { names.firstIndex(of: name) ?? 99 }
}

let phone = ScreenSize(width: 400, height: 800)
