import ArgumentParser
import Export
import Foundation

/// `screenlab export --weights W --format onnx|safetensors --out FILE`: the one place users
/// coming from `yolo export` look. safetensors is `screenlab weights export`, run as it is.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export a trained detector as an ONNX model (the network) or safetensors (the tensors).",
        discussion: """
        onnx: the batch-norm-folded network (opset 13), input `images` [batch, 3, H, W] (letterboxed RGB, (pixel/255 − \
        mean)/std), output `head` [batch, priors, class logits + box encoding]; with --with-postprocess instead `scores` \
        [batch, priors, classes] (sigmoid) and `boxes` [batch, priors, 4] (x1, y1, x2, y2 in input pixels). Thresholds and \
        NMS are not in the graph. Classes, per-class thresholds, input size, normalization and output layouts are in the \
        model's metadata_props. safetensors: the same as `screenlab weights export`.
        """)

    @Option(help: "Trained detector (.slw written by `screenlab train`).") var weights: String
    @Option(help: "onnx or safetensors.") var format: String
    @Option(help: "The file to write (written whole or not at all; never the weights file).") var out: String
    @Flag(help: "onnx only: add the head's decode (sigmoid scores, boxes in input pixels) to the graph.") var withPostprocess = false

    func validate() throws {
        let parsed: ExportFormat
        do { parsed = try ExportFormat(parsing: format) } catch { throw usageError("\(error)") }
        if parsed == .safetensors && withPostprocess {
            throw usageError("--with-postprocess applies to --format onnx only: safetensors holds tensors, not a graph")
        }
    }

    func run() throws {
        switch try ExportFormat(parsing: format) {
        case .safetensors:
            // "--" so a weights path starting with "-" stays a path.
            try WeightsExportCommand.parse(["--safetensors", out, "--", weights]).run()
        case .onnx:
            let summary: ONNXExporter.Summary
            do {
                summary = try ONNXExporter.write(weights: URL(fileURLWithPath: weights), to: URL(fileURLWithPath: out),
                                                 withPostprocess: withPostprocess)
            } catch {
                throw failure("\(error)")
            }
            print("wrote \(out): ONNX opset \(ONNXExporter.opsetVersion), \(summary.nodes) nodes, \(summary.constants) constant values, "
                  + "\(summary.bytes) bytes; outputs \(summary.outputs.joined(separator: ", ")); classes, thresholds, input size "
                  + "and normalization in metadata_props")
        }
    }
}
