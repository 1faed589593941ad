import Inference
import Kernels

/// The fused network (`FusedDetector.graph`: batch norm already folded into every convolution)
/// as ONNX opset-13 nodes. Translating that graph, rather than walking the modules again, keeps
/// the export to exactly what `predict` runs.
enum ONNXNetwork {
    /// Adds the graph's nodes reading `input`; returns the value holding the head matrix
    /// [N, priors, outputsPerPrior], rows in (level, row, column, anchor) order — the Swift
    /// path's [N · priors, outputsPerPrior] with the batch as its own axis.
    static func add(_ graph: InferenceGraph, outputsPerPrior: Int, input: String, headName: String,
                    to builder: inout ONNXGraphBuilder) throws -> String {
        var current = [String?](repeating: nil, count: graph.values.count)
        var producer = [String](repeating: "images", count: graph.values.count)
        current[0] = input
        var levels: [(offset: Int, rows: String)] = []
        // [N, H·W·A, outputsPerPrior]: 0 keeps the batch, −1 takes the positions.
        let rowShape = builder.initializer("head.row_shape", int64s: [0, -1, Int64(outputsPerPrior)])
        let upsampleScales = builder.initializer("fpn.upsample_scales", floats: [1, 1, 2, 2], shape: [4])
        func value(_ index: Int, for step: String) throws -> String {
            guard let name = current[index] else {
                throw ExportError(message: "fused graph step \(step) reads value \(index) before any step writes it")
            }
            return name
        }
        for step in graph.steps {
            switch step {
            case let .convolution(layerIndex, source, destination):
                let layer = graph.layers[layerIndex], name = graph.layerNames[layerIndex]
                var y = convolution(layer, name: name, input: try value(source, for: name), to: &builder)
                y = activation(layer.bounds, name: name, input: y, to: &builder)
                switch destination {
                case let .value(index):
                    current[index] = y
                    producer[index] = name
                case let .flat(offset):
                    let channelsLast = builder.node("Transpose", [y], name: "\(name).to_nhwc", attributes: [ONNXAttribute.ints("perm", [0, 2, 3, 1])])
                    levels.append((offset, builder.node("Reshape", [channelsLast, rowShape], name: "\(name).rows")))
                }
            case let .addUpsampled(coarse, fine):
                let coarseName = producer[coarse]
                // asymmetric + floor maps output pixel x to input x/2 exactly: nearest-2× as the FPN does it.
                let upsampled = builder.node("Resize", [try value(coarse, for: coarseName), "", upsampleScales],
                                             name: "\(coarseName).upsample2x", attributes: [
                                                 ONNXAttribute.string("mode", "nearest"),
                                                 ONNXAttribute.string("coordinate_transformation_mode", "asymmetric"),
                                                 ONNXAttribute.string("nearest_mode", "floor"),
                                             ])
                current[fine] = builder.node("Add", [try value(fine, for: producer[fine]), upsampled], name: "\(producer[fine]).add_top_down")
            }
        }
        guard !levels.isEmpty else { throw ExportError(message: "the fused graph has no head output convolution") }
        let ordered = levels.sorted { $0.offset < $1.offset }.map(\.rows)
        return builder.node("Concat", ordered, name: "head.concat", output: headName, attributes: [ONNXAttribute.int("axis", 1)])
    }

    static func convolution(_ layer: FoldedConvolution, name: String, input: String, to builder: inout ONNXGraphBuilder) -> String {
        let k = layer.kernelSize
        let weight = builder.initializer("\(name).weight", floats: layer.weight,
                                         shape: [layer.outputChannels, layer.inputChannels / layer.groups, k, k])
        let bias = builder.initializer("\(name).bias", floats: layer.bias, shape: [layer.outputChannels])
        return builder.node("Conv", [input, weight, bias], name: name, attributes: [
            ONNXAttribute.ints("kernel_shape", [k, k]),
            ONNXAttribute.ints("strides", [layer.stride, layer.stride]),
            ONNXAttribute.ints("pads", [layer.padding, layer.padding, layer.padding, layer.padding]),
            ONNXAttribute.ints("dilations", [1, 1]),
            ONNXAttribute.int("group", layer.groups),
        ])
    }

    /// ReLU as Relu, any other clamp (ReLU6) as Clip; an unbounded side is an omitted Clip input.
    static func activation(_ bounds: ActivationBounds, name: String, input: String, to builder: inout ONNXGraphBuilder) -> String {
        if bounds == .identity { return input }
        if bounds.lower == 0 && bounds.upper == .infinity { return builder.node("Relu", [input], name: "\(name).relu") }
        let lower = bounds.lower.isFinite ? builder.scalar(bounds.lower) : ""
        let upper = bounds.upper.isFinite ? builder.scalar(bounds.upper) : ""
        return builder.node("Clip", [input, lower, upper], name: "\(name).clip")
    }
}
