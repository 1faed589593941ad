import Detection

/// `--with-postprocess`: what `HeadDecoder` does after the network, as ONNX nodes — sigmoid
/// class scores and boxes (x1, y1, x2, y2) in the model input's (letterboxed) pixels. What
/// follows in Swift (per-class thresholds, NMS, mapping back to the source image) is left to
/// the caller: thresholds and the letterbox are in the model's metadata.
enum ONNXDecode {
    static func add(head: String, configuration c: UIDetectorConfiguration, scoresName: String, boxesName: String,
                    to builder: inout ONNXGraphBuilder) throws -> (scores: String, boxes: String) {
        let decoder: HeadDecoder
        do { decoder = try HeadDecoder(configuration: c) } catch {
            throw ExportError(message: "cannot decode this model's head: \(error)")
        }
        let k = c.classCount
        let logits = slice(head, from: 0, to: k, name: "decode.class_logits", to: &builder)
        let scores = builder.node("Sigmoid", [logits], name: "decode.sigmoid", output: scoresName)
        let boxes: String
        if let points = decoder.points {
            boxes = distributionBoxes(head, points: points, classCount: k, bins: c.distributionBins, boxesName: boxesName, to: &builder)
        } else if let anchors = decoder.anchors {
            boxes = anchorBoxes(head, anchors: anchors, coder: decoder.coder, classCount: k, boxesName: boxesName, to: &builder)
        } else {
            throw ExportError(message: "the head decoder has neither points nor anchors")
        }
        return (scores, boxes)
    }

    /// GFL's integral: each side's distance is Σ i · softmax(bins)_i strides from the point.
    static func distributionBoxes(_ head: String, points: PointGrid, classCount k: Int, bins: Int, boxesName: String,
                                  to builder: inout ONNXGraphBuilder) -> String {
        let count = points.count
        let logits = slice(head, from: k, to: k + 4 * bins, name: "decode.side_logits", to: &builder)
        let perSide = builder.node("Reshape", [logits, builder.initializer("decode.side_shape", int64s: [0, -1, 4, Int64(bins)])],
                                   name: "decode.sides")
        let probabilities = builder.node("Softmax", [perSide], name: "decode.side_softmax", attributes: [ONNXAttribute.int("axis", -1)])
        let binIndex = builder.initializer("decode.bin_index", floats: (0..<bins).map(Float.init), shape: [bins, 1])
        let expectation = builder.node("MatMul", [probabilities, binIndex], name: "decode.expectation")
        let inStrides = builder.node("Reshape", [expectation, builder.initializer("decode.distance_shape", int64s: [0, -1, 4])],
                                     name: "decode.distances")
        let distances = builder.node("Mul", [inStrides, builder.initializer("decode.point_stride", floats: points.stride, shape: [count, 1])],
                                     name: "decode.distances_px")
        // (l, t, r, b) → (x − l, y − t, x + r, y + b).
        let signed = builder.node("Mul", [distances, builder.initializer("decode.side_sign", floats: [-1, -1, 1, 1], shape: [4])],
                                  name: "decode.signed_distances")
        var centres = [Float](repeating: 0, count: 4 * count)
        for p in 0..<count {
            centres[4 * p] = points.x[p]; centres[4 * p + 1] = points.y[p]
            centres[4 * p + 2] = points.x[p]; centres[4 * p + 3] = points.y[p]
        }
        return builder.node("Add", [builder.initializer("decode.point_xyxy", floats: centres, shape: [count, 4]), signed],
                            name: "decode.boxes", output: boxesName)
    }

    /// SSD offsets about the anchors, with `AnchorBoxCoder`'s variances and log-scale clamp.
    static func anchorBoxes(_ head: String, anchors: AnchorGrid, coder: AnchorBoxCoder, classCount k: Int, boxesName: String,
                            to builder: inout ONNXGraphBuilder) -> String {
        let count = anchors.count
        let offsets = slice(head, from: k, to: k + 4, name: "decode.offsets", to: &builder)
        let v = coder.variances
        let scaled = builder.node("Mul", [offsets, builder.initializer("decode.variances", floats: [v[0], v[1], v[2], v[3]], shape: [4])],
                                  name: "decode.scaled_offsets")
        var centre = [Float](repeating: 0, count: 2 * count), size = centre
        for p in 0..<count {
            centre[2 * p] = anchors.centerX[p]; centre[2 * p + 1] = anchors.centerY[p]
            size[2 * p] = anchors.width[p]; size[2 * p + 1] = anchors.height[p]
        }
        let anchorSize = builder.initializer("decode.anchor_wh", floats: size, shape: [count, 2])
        let shift = builder.node("Mul", [slice(scaled, from: 0, to: 2, name: "decode.centre_offsets", to: &builder), anchorSize],
                                 name: "decode.centre_shift")
        let centres = builder.node("Add", [builder.initializer("decode.anchor_centre", floats: centre, shape: [count, 2]), shift],
                                   name: "decode.centres")
        let m = coder.maximumLogScale
        let logScale = builder.node("Clip", [slice(scaled, from: 2, to: 4, name: "decode.log_scale", to: &builder), builder.scalar(-m), builder.scalar(m)],
                                    name: "decode.log_scale_clamped")
        let sizes = builder.node("Mul", [anchorSize, builder.node("Exp", [logScale], name: "decode.scale")], name: "decode.sizes")
        let half = builder.node("Div", [sizes, builder.scalar(2)], name: "decode.half_sizes")
        let topLeft = builder.node("Sub", [centres, half], name: "decode.top_left")
        let bottomRight = builder.node("Add", [centres, half], name: "decode.bottom_right")
        return builder.node("Concat", [topLeft, bottomRight], name: "decode.boxes", output: boxesName,
                            attributes: [ONNXAttribute.int("axis", 2)])
    }

    /// head[:, :, from..<to].
    static func slice(_ input: String, from start: Int, to end: Int, name: String, to builder: inout ONNXGraphBuilder) -> String {
        builder.node("Slice", [input, builder.initializer("\(name).starts", int64s: [Int64(start)]),
                               builder.initializer("\(name).ends", int64s: [Int64(end)]),
                               builder.initializer("\(name).axes", int64s: [2])], name: name)
    }
}
