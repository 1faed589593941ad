import Autograd
import NN
import Support
import Tensor

/// A small conv net (conv-BN-ReLU, max-pool, strided conv-BN-ReLU, global mean, linear) for
/// the engine's end-to-end tests (overfit, optimizer state, transfer, freezing): test support, not library code.
public final class TinyConvNet: Module, Layer {
    public let block1: ConvBatchNormActivation
    public let block2: ConvBatchNormActivation
    public let classifier: Linear

    public init(inputChannels: Int = 3, width: Int = 8, outputs: Int = 1, seed: UInt64 = 0) throws {
        var rng = SeededRandom(seed: seed)
        block1 = try ConvBatchNormActivation(conv: Conv2d(inputChannels: inputChannels, outputChannels: width, kernelSize: 3, bias: false, rng: &rng), activation: .relu)
        block2 = try ConvBatchNormActivation(conv: Conv2d(inputChannels: width, outputChannels: 2 * width, kernelSize: 3, stride: 2, bias: false, rng: &rng), activation: .relu)
        classifier = try Linear(inputFeatures: 2 * width, outputFeatures: outputs, rng: &rng)
    }

    public override var children: [(name: String, module: Module)] {
        [("block1", block1), ("block2", block2), ("classifier", classifier)]
    }

    /// Logits [N, outputs].
    public func callAsFunction(_ x: Variable) throws -> Variable {
        let features = try block2(block1(x).maxPool2d(kernel: 2)).mean(axes: [2, 3])
        return try classifier(features)
    }
}

/// Generated two-class images: a bright horizontal bar (label 0) or vertical bar (label 1) at a
/// random place on noise — learnable only from spatial structure, not from mean colour.
public enum BarImages {
    public static func make(count: Int, size: Int = 24, seed: UInt64) throws -> (images: Tensor, labels: Tensor) {
        guard count > 0, size >= 8 else {
            throw TensorError.invalidArgument(op: "BarImages", reason: "count \(count), size \(size): need at least one image of at least 8×8 pixels")
        }
        var rng = SeededRandom(seed: seed)
        var images = Tensor(uninitialized: [count, 3, size, size])
        var labels = Tensor(uninitialized: [count, 1])
        images.withUnsafeMutableBufferPointer { p in
            for n in 0..<count {
                let vertical = n % 2 == 1
                labels[flat: n] = vertical ? 1 : 0
                let position = rng.int(in: 2..<(size - 4)), thickness = 3
                for c in 0..<3 {
                    for y in 0..<size {
                        for x in 0..<size {
                            let onBar = vertical ? (x >= position && x < position + thickness) : (y >= position && y < position + thickness)
                            p[((n * 3 + c) * size + y) * size + x] = Float(rng.normal() * 0.3) + (onBar ? 1.5 : 0)
                        }
                    }
                }
            }
        }
        return (images, labels)
    }
}
