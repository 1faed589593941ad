import Foundation
import Imaging

/// One detection on a screen, as the detector's post-processing gives it: class (by name, so
/// any weights whose classes use the Screen Recognition names work), box in source pixels,
/// score.
public struct ScreenDetection: Equatable, Sendable {
    public var classIndex: Int
    public var className: String
    public var box: BoundingBox
    public var score: Double

    public init(classIndex: Int, className: String, box: BoundingBox, score: Double) {
        self.classIndex = classIndex; self.className = className; self.box = box.normalized; self.score = score
    }

    public var role: DetectionRole { DetectionRole(className: className) }
}

/// What the heuristics need to know about a class. Names follow `Taxonomy.screenRecognition`;
/// matching ignores case and surrounding spaces. Anything else is `.other` and passes
/// through as a plain element.
public enum DetectionRole: Equatable, Sendable {
    case text, icon, picture, container, segmentedControl, dialog
    /// A Checkbox or Toggle whose class carries its state (§5.3: "our UI detection model
    /// includes selection states in detected UI types").
    case stateful(selected: Bool)
    case other

    public init(className: String) {
        let name = className.trimmingCharacters(in: .whitespaces).lowercased()
        switch name {
        case "text": self = .text
        case "icon": self = .icon
        case "picture": self = .picture
        case "container": self = .container
        case "segmented control": self = .segmentedControl
        case "dialog": self = .dialog
        case "checkbox (selected)", "toggle (selected)": self = .stateful(selected: true)
        case "checkbox (unselected)", "toggle (unselected)": self = .stateful(selected: false)
        default: self = .other
        }
    }
}

/// The screen the detections lie on; the tab-bar and subtitle rules measure in its height.
public struct ScreenSize: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}
