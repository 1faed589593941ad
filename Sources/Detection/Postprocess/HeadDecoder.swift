import Foundation
import Tensor

/// Turns the detector's flat head values ([N · priors, outputsPerPrior], class logits first)
/// into what post-processing and assignment read: per image, class probabilities [P, K] after
/// the sigmoid and boxes [P, 4] as x1, y1, x2, y2 in model-input pixels.
///
/// Anchor-free: each side's distance is the expectation of its softmax over the bins (GFL's
/// integral), in units of the point's stride. Anchored: SSD offsets decoded about the anchors.
public struct HeadDecoder: Sendable {
    public let configuration: UIDetectorConfiguration
    public let points: PointGrid?
    public let anchors: AnchorGrid?
    public let coder = AnchorBoxCoder()

    public init(configuration: UIDetectorConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        switch configuration.head {
        case .anchorFree:
            points = PointGrid(inputHeight: configuration.inputHeight, inputWidth: configuration.inputWidth, strides: configuration.strides)
            anchors = nil
        case .anchored:
            let grid = AnchorGrid.uiElements(inputHeight: configuration.inputHeight, inputWidth: configuration.inputWidth, strides: configuration.strides)
            guard grid.anchorsPerCell == configuration.anchorsPerCell else {
                throw TensorError.invalidArgument(op: "HeadDecoder", reason: "the UI anchor set has \(grid.anchorsPerCell) anchors per cell but the model config says anchors_per_cell \(configuration.anchorsPerCell)")
            }
            anchors = grid
            points = nil
        }
    }

    public var priorCount: Int { points?.count ?? anchors!.count }

    public struct Decoded {
        public var probabilities: [Float]
        public var boxes: [Float]
    }

    /// Every image of a batch.
    public func decode(_ flat: Tensor, images: Int) -> [Decoded] {
        (0..<images).map { decode(flat, image: $0) }
    }

    public func decode(_ flat: Tensor, image: Int) -> Decoded {
        decode(flat, image: image, priors: 0..<priorCount)
    }

    /// Only `priors` of one image, in their order: row i of the result is prior `priors[i]`.
    /// Static assignment reads the head at its positives only, a few dozen of thousands.
    public func decode<Priors: Collection<Int>>(_ flat: Tensor, image: Int, priors: Priors) -> Decoded {
        let k = configuration.classCount, width = configuration.outputsPerPrior, count = priorCount
        precondition(flat.shape == [flat.shape[0], width] && flat.shape[0] >= (image + 1) * count, "HeadDecoder: head values \(flat.shape) for image \(image)")
        var probabilities = [Float](repeating: 0, count: priors.count * k)
        var boxes = [Float](repeating: 0, count: priors.count * 4)
        let rows = flat.pointer + image * count * width
        for (i, p) in priors.enumerated() {
            precondition(p >= 0 && p < count, "HeadDecoder: prior \(p) of \(count)")
            let row = rows + p * width
            for c in 0..<k { probabilities[i * k + c] = 1 / (1 + exp(-row[c])) }
            let box = self.box(row + k, prior: p)
            for j in 0..<4 { boxes[4 * i + j] = box[j] }
        }
        return Decoded(probabilities: probabilities, boxes: boxes)
    }

    /// x1, y1, x2, y2 of prior `p` from its regression values.
    @inline(__always)
    func box(_ regression: UnsafePointer<Float>, prior p: Int) -> SIMD4<Float> {
        if let points {
            let bins = configuration.distributionBins
            var distance = SIMD4<Float>()
            for side in 0..<4 { distance[side] = Self.expectation(regression + side * bins, bins: bins) * points.stride[p] }
            return SIMD4(points.x[p] - distance[0], points.y[p] - distance[1], points.x[p] + distance[2], points.y[p] + distance[3])
        }
        return coder.decode(SIMD4(regression[0], regression[1], regression[2], regression[3]), anchor: anchors!.anchor(at: p))
    }

    /// Σ i · softmax(logits)_i, with the maximum subtracted so large logits cannot overflow.
    @inline(__always)
    static func expectation(_ logits: UnsafePointer<Float>, bins: Int) -> Float {
        var maximum = logits[0]
        for i in 1..<bins { maximum = max(maximum, logits[i]) }
        var total: Float = 0, weighted: Float = 0
        for i in 0..<bins {
            let e = exp(logits[i] - maximum)
            total += e
            weighted += e * Float(i)
        }
        return weighted / total
    }
}
