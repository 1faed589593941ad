import Kernels

/// What a trained module describes itself into for inference: the fused graph of `Inference`
/// (which ONNX export translates in turn). Each module's `lower` sits beside its forward, so the
/// model's structure — which blocks, where a feature is tapped, how the pyramid merges — is
/// written once, by the module that owns it; the inference path knows kernels, not layouts.
///
/// Values are numbered activations; value 0 is the input image. Batch norm is lowered in eval
/// mode (running statistics), which is what lets the graph fold it into the convolution.
public protocol InferenceLowering {
    /// Convolution → eval-mode batch norm (if any) → activation (if any), as one step; returns its value.
    mutating func convolution(_ conv: Conv2d, batchNorm: BatchNorm2d?, activation: ActivationKind?, input: Int, name: String) throws -> Int
    /// A head's output convolution: its values become rows of the flat per-prior matrix, placed
    /// after the rows of every head output lowered before it.
    mutating func headOutput(_ conv: Conv2d, input: Int, name: String) throws
    /// `fine += nearest2x(coarse)`, in place: a feature pyramid's top-down sum.
    mutating func addUpsampled(coarse: Int, into fine: Int, name: String) throws
}

/// A layer that can describe itself to an `InferenceLowering` (what `Sequential` needs of its layers).
public protocol LowerableLayer {
    /// Adds this layer's steps reading `input`; returns the value it produces.
    func lower<Graph: InferenceLowering>(_ input: Int, name: String, into graph: inout Graph) throws -> Int
}

/// A trained model that the inference path cannot run, naming the layer by its module path.
public struct InferenceModelError: Error, CustomStringConvertible {
    public let layer: String
    public let reason: String
    public init(layer: String, reason: String) {
        self.layer = layer
        self.reason = reason
    }
    public var description: String { "fused inference model, \(layer): \(reason)" }
}

extension Sequential: LowerableLayer {
    public func lower<Graph: InferenceLowering>(_ input: Int, name: String, into graph: inout Graph) throws -> Int {
        try lower(input, name: name, layers: layers.indices, into: &graph)
    }

    /// Lowers `layers[range]` only (a feature tapped inside a stage); names keep the layers' indices.
    public func lower<Graph: InferenceLowering>(_ input: Int, name: String, layers range: Range<Int>, into graph: inout Graph) throws -> Int {
        var x = input
        for index in range {
            guard let layer = layers[index] as? LowerableLayer else {
                throw InferenceModelError(layer: "\(name).\(index)", reason: "\(type(of: layers[index])) has no inference lowering")
            }
            x = try layer.lower(x, name: "\(name).\(index)", into: &graph)
        }
        return x
    }
}

extension ConvBatchNormActivation: LowerableLayer {
    public func lower<Graph: InferenceLowering>(_ input: Int, name: String, into graph: inout Graph) throws -> Int {
        let kind: ActivationKind?
        switch activation {
        case .none: kind = nil
        case .relu: kind = .relu
        case .relu6: kind = .relu6
        case .sigmoid: kind = .sigmoid
        case .silu: kind = .silu
        }
        return try graph.convolution(conv, batchNorm: bn, activation: kind, input: input, name: name)
    }
}
