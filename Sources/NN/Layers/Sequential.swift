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
        try profiled(on: x.tape) {
            let y = try conv(x)
            return try bn.profiled(on: x.tape) {
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
}

/// A list of modules named "0", "1", ... without a forward of its own.
public final class ModuleList: Module {
    public let modules: [Module]
    public init(_ modules: [Module]) { self.modules = modules }
    public override var children: [(name: String, module: Module)] {
        modules.enumerated().map { (String($0.offset), $0.element) }
    }
}
