import Detection

/// Names and layouts of the exported graph's input and outputs, in one place for the graph,
/// its metadata and the docs.
public enum ONNXOutputs {
    public static let input = "images"
    /// Without decode: the raw head matrix.
    public static let head = "head"
    /// With decode.
    public static let boxes = "boxes"
    public static let scores = "scores"
    /// The batch axis, bound by ONNX Runtime at run time.
    public static let batch = "batch"

    static func description(_ c: UIDetectorConfiguration, withPostprocess: Bool) -> String {
        let order = "rows in (level, row, column\(c.head == .anchored ? ", anchor" : "")) order over strides \(c.strides)"
        if withPostprocess {
            return """
            \(scores) [batch, \(c.priorCount), \(c.classCount)]: sigmoid score per prior and class; \(boxes) [batch, \(c.priorCount), 4]: \
            x1, y1, x2, y2 in model-input (letterboxed) pixels; \(order)
            """
        }
        let encoding = c.head == .anchorFree
            ? "then 4 × \(c.distributionBins) box-side logits (left, top, right, bottom; softmax over the bins, expectation × stride is the distance from the cell centre)"
            : "then 4 SSD offsets (dx, dy, dw, dh; variances 0.1, 0.1, 0.2, 0.2) about the prior's anchor"
        return """
        \(head) [batch, \(c.priorCount), \(c.outputsPerPrior)]: per prior \(c.classCount) class logits (sigmoid gives the score), \
        \(encoding); \(order)
        """
    }

    static func postprocessNote(withPostprocess: Bool) -> String {
        withPostprocess
            ? "in the graph: sigmoid scores and box decoding; not in the graph: per-class thresholds, NMS, mapping boxes from the letterbox back to the source image"
            : "none: the graph ends at the head; decode (sigmoid, box decoding), thresholds and NMS are left to the caller (or export --with-postprocess)"
    }
}
