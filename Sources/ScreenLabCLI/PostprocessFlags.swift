import ArgumentParser
import Detection

/// `--nms-iou` and `--cross-class-iou`: the post-processing a trained model's detections go
/// through in `predict`, `evaluate --weights` and `evaluate-order`, as an experiment's
/// `postprocess:` section sets it for validation — so a run validated with other values can be
/// scored, and used, the same way (and a sweep of them is a command line).
struct PostprocessFlags: ParsableArguments {
    @Option(name: .customLong("nms-iou"), help: "Class-wise NMS: a detection overlapping a higher-scoring one of its class with IoU above this is dropped (an experiment's postprocess.nms_iou).")
    var nmsIoU: Double = PostprocessOptions().nmsIoU
    @Option(name: .customLong("cross-class-iou"), help: ArgumentHelp(
        "Among similar classes (Icon/Picture; Segmented Control/Text Field/Container), a detection overlapping a higher-scoring one with IoU above this is dropped; 1 keeps them all.",
        discussion: "Default: 0.8 where detections are used (predict, evaluate-order: one element, one label), 1 where AP is scored (evaluate, and a run's reports: postprocess.cross_class_iou)."))
    var crossClassIoU: Double?

    func validate() throws {
        guard (0...1).contains(nmsIoU) else { throw usageError("--nms-iou must lie in 0...1, got \(nmsIoU)") }
        if let crossClassIoU, !(0...1).contains(crossClassIoU) { throw usageError("--cross-class-iou must lie in 0...1, got \(crossClassIoU)") }
    }

    /// Neither flag given.
    var isDefault: Bool { nmsIoU == PostprocessOptions().nmsIoU && crossClassIoU == nil }

    /// The options for using detections; the caller fills in the thresholds and class groups.
    var deploymentOptions: PostprocessOptions {
        PostprocessOptions(nmsIoU: nmsIoU, crossClassIoU: crossClassIoU ?? PostprocessOptions().crossClassIoU)
    }

    /// The options for scoring AP: no cross-class removal unless asked for.
    var scoringOptions: PostprocessOptions {
        PostprocessOptions(nmsIoU: nmsIoU, crossClassIoU: crossClassIoU ?? PostprocessOptions.scoringCrossClassIoU)
    }
}
