import Autograd
import Kernels

/// Layers applied in order, named "0", "1", ... as in PyTorch.
public final class Sequential: Module, Layer {
    public let layers: [any Layer]

    public init(_ layers: [any Layer]) { self.layers = layers }

    public override var children: [(name: String, module: Module)] {
        layers.enumerated().map { (String($0.offset), $0.element as Module) }
    }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        try profiled(on: x.tape) { try layers.reduce(x) { try $1($0) } }
    }
}

/// An activation as a layer.
public final class ActivationLayer: Module, Layer {
    public enum Function {
        case relu, relu6, sigmoid, silu

        /// As papers and PyTorch spell it ("ReLU6"), for profile labels.
        public var displayName: String {
            switch self {
            case .relu: return "ReLU"
            case .relu6: return "ReLU6"
            case .sigmoid: return "Sigmoid"
            case .silu: return "SiLU"
            }
        }
    }
    public let function: Function
    public init(_ function: Function) { self.function = function }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        profiled(on: x.tape) {
            switch function {
            case .relu: return x.relu()
            case .relu6: return x.relu6()
            case .sigmoid: return x.sigmoid()
            case .silu: return x.silu()
            }
        }
    }
}

/// Conv → BatchNorm → activation, the building block of MobileNet. The convolution's weight
/// is this module's own (`pointwise.weight`), the norm a child (`pointwise.bn.running_mean`).
/// In profiles the norm and its activation are one layer, e.g. "BN+ReLU6" (they run fused).
public final class ConvBatchNormActivation: Module, Layer {
    public let conv: Conv2d
    public let bn: BatchNorm2d
    public let activation: ActivationLayer.Function?

    public init(conv: Conv2d, activation: ActivationLayer.Function? = .relu6) throws {
        self.conv = conv
        bn = try BatchNorm2d(channels: conv.weight.shape[0])
        self.activation = activation
        super.init()
        bn.profileLabel = activation.map { "BN+\($0.displayName)" } ?? "BN"
    }

    public override var ownParameters: [(name: String, parameter: Parameter)] { conv.ownParameters }
    public override var children: [(name: String, module: Module)] { [("bn", bn)] }

    public func callAsFunction(_ x: Variable) throws -> Variable {
        try profiled(on: x.tape) { try normalize(conv(x)) }
    }

    /// The convolution alone: `normalize` (or `normalizeThenDepthwise`) finishes the layer.
    public func convolve(_ x: Variable) throws -> Variable {
        try profiled(on: x.tape) { try conv(x) }
    }

    /// Batch norm and the activation of `convolve`'s output.
    public func normalize(_ y: Variable) throws -> Variable {
        try profiled(on: y.tape) {
            try bn.profiled(on: y.tape) {
                switch activation {
                case .none: return try bn(y)
                case .relu: return try bn(y, activation: .relu)
                case .relu6: return try bn(y, activation: .relu6)
                case .sigmoid: return try bn(y).sigmoid()
                case .silu: return try bn(y).silu()
                }
            }
        }
    }

    /// `next(normalize(y))` for a `next` made of a depthwise 3×3, its batch norm and activation:
    /// this layer's normalisation, the depthwise convolution and (when it normalises with batch
    /// statistics) `next`'s normalisation as one op that stores neither the normalised input nor
    /// the depthwise output's gradient (`BatchNorm2d.normalizeThenDepthwise`) — unless
    /// `LayerFusion.normalizationIntoDepthwise` is off or the fused op does not cover these
    /// layers; then they run as usual.
    public func normalizeThenDepthwise(_ y: Variable, next: ConvBatchNormActivation) throws -> Variable {
        if LayerFusion.normalizationIntoDepthwise, case let .some(kind) = fusableActivation,
           let (output, followed) = try profiled(on: y.tape, {
               try bn.normalizeThenDepthwise(y, activation: kind, depthwise: next.conv,
                                             then: next.fusableActivation.map { (next.bn, $0) })
           }) {
            return followed ? output : try next.normalize(output)
        }
        return try next(normalize(y))
    }

    /// The activation as batch norm's kernels fuse it (`.some(nil)`: none), or nil when they cannot.
    var fusableActivation: ActivationKind?? {
        switch activation {
        case .none: return .some(nil)
        case .relu: return .some(.relu)
        case .relu6: return .some(.relu6)
        case .sigmoid, .silu: return .none
        }
    }
}

/// What a layer hands the next one: a value, or a convolution's output whose batch norm and
/// activation are still to come, so that a depthwise layer next can apply them as it reads
/// (`ConvBatchNormActivation.normalizeThenDepthwise`).
public enum LayerOutput {
    case value(Variable)
    case convolved(Variable, pending: ConvBatchNormActivation)

    public var tape: Tape {
        switch self {
        case let .value(x): return x.tape
        case let .convolved(y, _): return y.tape
        }
    }

    /// The value, normalising a pending convolution's output now.
    public func value() throws -> Variable {
        switch self {
        case let .value(x): return x
        case let .convolved(y, pending): return try pending.normalize(y)
        }
    }
}

/// Switches for fused training ops that give the same bits as the layers they replace (tests
/// compare both ways).
public enum LayerFusion {
    /// Batch norm + activation, the depthwise 3×3 after it and that layer's batch norm + activation
    /// as one op (`ConvBatchNormActivation.normalizeThenDepthwise`).
    @TaskLocal public static var normalizationIntoDepthwise = true
}

/// A list of modules named "0", "1", ... without a forward of its own.
public final class ModuleList: Module {
    public let modules: [Module]
    public init(_ modules: [Module]) { self.modules = modules }
    public override var children: [(name: String, module: Module)] {
        modules.enumerated().map { (String($0.offset), $0.element) }
    }
}
