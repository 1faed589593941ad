import Kernels
import NN

/// The fused model's forward pass as a list of steps over numbered activations, independent
/// of the batch size: value 0 is the input; every convolution makes a new value, except the
/// head's last convolutions, which write rows of the flat output matrix directly.
/// Readable outside Inference so an exporter (ONNX) translates the very graph the fused path runs.
public struct InferenceGraph {
    public struct Value {
        public let channels: Int, height: Int, width: Int
        var planeCount: Int { channels * height * width }
    }

    public enum Destination: Equatable {
        case value(Int)
        /// The flat head matrix, starting at this position of every image (positions-first).
        case flat(positionOffset: Int)
    }

    public enum Step {
        case convolution(layer: Int, input: Int, output: Destination)
        /// `fine += nearest2x(coarse)`, in place (the FPN's top-down sum).
        case addUpsampled(coarse: Int, fine: Int)
    }

    public private(set) var layers: [FoldedConvolution] = []
    /// Each layer's module path ("backbone.stage3.0.depthwise"): node and initializer names in exported graphs.
    public private(set) var layerNames: [String] = []
    public private(set) var values: [Value]
    public private(set) var steps: [Step] = []
    /// Channels of the flat matrix's rows (the head's output convolutions all have this many).
    public private(set) var flatRowChannels: Int?
    /// Positions per image written to the flat matrix so far (the next head output starts there).
    public private(set) var flatPositions = 0

    init(inputChannels: Int, height: Int, width: Int) {
        values = [Value(channels: inputChannels, height: height, width: width)]
    }

    /// Adds `layer` on `input`; returns the new value (nil when it writes the flat output).
    @discardableResult
    mutating func convolution(_ layer: FoldedConvolution, input: Int, flatPositionOffset: Int? = nil, name: String) throws -> Int? {
        let x = values[input]
        guard layer.inputChannels == x.channels else {
            throw InferenceModelError(layer: name, reason: "expects \(layer.inputChannels) input channels, gets \(x.channels)")
        }
        let g = try layer.geometry(batch: 1, height: x.height, width: x.width)
        guard FusedConv2d.isSupported(g) else {
            throw InferenceModelError(layer: name, reason: "groups \(layer.groups) is neither 1 nor the channel count")
        }
        layers.append(layer)
        layerNames.append(name)
        if let offset = flatPositionOffset {
            guard g.groups == 1, flatRowChannels == nil || flatRowChannels == g.outChannels else {
                throw InferenceModelError(layer: name, reason: "head outputs must be dense convolutions with one channel count")
            }
            flatRowChannels = g.outChannels
            steps.append(.convolution(layer: layers.count - 1, input: input, output: .flat(positionOffset: offset)))
            return nil
        }
        values.append(Value(channels: g.outChannels, height: g.outHeight, width: g.outWidth))
        steps.append(.convolution(layer: layers.count - 1, input: input, output: .value(values.count - 1)))
        return values.count - 1
    }

    public mutating func addUpsampled(coarse: Int, into fine: Int, name: String) throws {
        let c = values[coarse], f = values[fine]
        guard c.channels == f.channels, 2 * c.height == f.height, 2 * c.width == f.width else {
            throw InferenceModelError(layer: name, reason: "top-down sum of \(c.channels)×\(c.height)×\(c.width) onto \(f.channels)×\(f.height)×\(f.width)")
        }
        steps.append(.addUpsampled(coarse: coarse, fine: fine))
    }

    /// Per value, the last step that reads it (−1: never read).
    func lastUses() -> [Int] {
        var last = [Int](repeating: -1, count: values.count)
        for (index, step) in steps.enumerated() {
            switch step {
            case let .convolution(_, input, _): last[input] = index
            case let .addUpsampled(coarse, fine): last[coarse] = index; last[fine] = max(last[fine], index)
            }
        }
        return last
    }
}

/// Modules lower themselves here (`UIDetector.lower(into:)`): each convolution is folded with
/// its batch norm as it is added.
extension InferenceGraph: InferenceLowering {
    public mutating func convolution(_ conv: Conv2d, batchNorm: BatchNorm2d?, activation: ActivationKind?, input: Int, name: String) throws -> Int {
        try convolution(FoldedConvolution(conv: conv, batchNorm: batchNorm, activation: activation, layer: name), input: input, name: name)!
    }

    public mutating func headOutput(_ conv: Conv2d, input: Int, name: String) throws {
        let layer = try FoldedConvolution(conv: conv, batchNorm: nil, activation: nil, layer: name)
        let x = values[input], g = try layer.geometry(batch: 1, height: x.height, width: x.width)
        try convolution(layer, input: input, flatPositionOffset: flatPositions, name: name)
        flatPositions += g.outHeight * g.outWidth
    }
}
