import Kernels
import Tensor

// Boxes are rows of (x1, y1, x2, y2) in pixels.
extension Variable {
    /// Boxes [M, 4] from distances (left, top, right, bottom) [M, 4] in stride units, constant
    /// points [M, 2] (x, y) in pixels and strides [M]: (px − l·s, py − t·s, px + r·s, py + b·s).
    public func distancesToBoxes(points: Tensor, scales: Tensor) throws -> Variable {
        let count = shape.first ?? 0
        guard shape == [count, 4], points.shape == [count, 2], scales.shape == [count] else {
            throw TensorError.shapeMismatch(op: "distancesToBoxes", shapes: [shape, points.shape, scales.shape],
                                            reason: "expected distances [M, 4], points [M, 2] and scales [M]")
        }
        let distances = value
        let boxes = tape.timed(.distancesToBoxes) { () -> Tensor in
            var out = Tensor(uninitialized: [count, 4])
            out.withUnsafeMutableBufferPointer {
                BoxKernels.distancesToBoxes(distances: distances.pointer, points: points.pointer, strides: scales.pointer, count: count, boxes: $0.baseAddress!)
            }
            return out
        }
        return tape.record(.distancesToBoxes, inputs: [self], output: boxes) { g, _ in
            var grad = Tensor(uninitialized: [count, 4])
            grad.withUnsafeMutableBufferPointer {
                BoxKernels.distancesToBoxesBackward(gradBoxes: g.pointer, strides: scales.pointer, count: count, gradDistances: $0.baseAddress!)
            }
            return [grad]
        }
    }

    /// 1 − GIoU (Rezatofighi et al. 2019) of predicted boxes [M, 4] against constant targets
    /// [M, 4], union and enclosing area floored at 1e-7. An inverted prediction (x2 < x1, early
    /// in training) counts as area 0 and still has a finite loss and gradient. Elementwise
    /// output [M]; weights [M].
    public func generalizedIoULoss(targets: Tensor, weights: Tensor? = nil, reduction: LossReduction = .mean) throws -> Variable {
        let count = shape.first ?? 0
        guard shape == [count, 4], targets.shape == [count, 4], weights.map({ $0.shape == [count] }) ?? true else {
            throw TensorError.shapeMismatch(op: "generalizedIoULoss", shapes: [shape, targets.shape] + (weights.map { [$0.shape] } ?? []),
                                            reason: "expected predicted boxes [M, 4], targets [M, 4] and weights [M]")
        }
        let predicted = value
        return try fusedLoss(.generalizedIoULoss, outputShape: [count]) { losses, derivatives in
            LossKernels.generalizedIoU(predicted: predicted.pointer, targets: targets.pointer, weights: weights?.pointer, count: count,
                                       epsilon: 1e-7, losses: losses, derivatives: derivatives)
        }.reduced(reduction)
    }
}
