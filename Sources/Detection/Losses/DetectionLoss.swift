import Autograd
import Data
import Foundation
import Kernels
import Tensor

/// How the classification channel is trained and how the terms are weighted (the reported
/// terms are the weighted ones, so they add up to the total).
public struct DetectionLossSettings: Equatable, Sendable {
    public enum Classification: String, CaseIterable, Sendable {
        /// GFL's quality focal loss: the target is the IoU (or the task alignment) of the box.
        case qualityFocal = "quality_focal"
        /// VarifocalNet: IoU-aware target, focal down-weighting of negatives only.
        case varifocal
        /// RetinaNet's sigmoid focal loss on hard 0/1 targets.
        case focal
    }

    public var classification = Classification.qualityFocal
    /// NanoDet-Plus's weights: classification 1, GIoU 2, DFL 0.25 (anchored head: box = smooth-L1).
    public var classificationWeight: Float = 1, boxWeight: Float = 2, distributionWeight: Float = 0.25
    public var focalAlpha: Float = 0.25, focalGamma: Float = 2
    public var qualityBeta: Float = 2
    /// ATSS's departures for long, thin elements (`ATSSAssigner.Rules`): at least this many
    /// positives per box (0: the paper's threshold alone) ...
    public var minimumPositives = 0
    /// ... and, for the anchor-free head, no candidate beyond its reach of bins − 1 strides.
    public var withinReach = false
    /// ... and a prior claimed by several boxes goes to the smallest.
    public var smallestWins = false
    /// Knowledge distillation's weights, used when a teacher's outputs are given (`Distillation.swift`).
    public var distillation = DistillationWeights()

    public init() {}
}

/// The training loss of a `UIDetector` on one batch: target assignment per image (ATSS, or
/// task-aligned once predictions mean something), then classification over every prior and box
/// regression over the positives.
///
/// Anchor-free (GFL / NanoDet-Plus): quality focal (or varifocal / focal) loss on the K
/// class-and-quality logits, normalized by the number of positives; GIoU on the boxes decoded
/// from the side distributions and DFL on those distributions, both weighted per positive by its
/// predicted score (GFL's weight_targets) and normalized by their sum.
/// Anchored (SSD): the same classification loss, smooth-L1 on the encoded anchor offsets.
public final class DetectionLoss {
    public let configuration: UIDetectorConfiguration
    public let settings: DetectionLossSettings
    /// Per class, multiplies its channel's loss (class balance); nil when all are 1.
    let classWeights: [Float]?
    let decoder: HeadDecoder
    let staticAssigner: ATSSAssigner
    let alignedAssigner: TaskAlignedAssigner?
    /// Data parallelism: [positives, box-weight sum] of this rank's images → their sums over the
    /// ranks. Each rank then divides its sums by the global batch's normalizers, so the ranks'
    /// losses add up to the loss of the global batch (nil: one process).
    public var sumNormalizers: (([Double]) throws -> [Double])?

    public init(configuration: UIDetectorConfiguration, settings: DetectionLossSettings, classWeights: [Float]) throws {
        guard classWeights.count == configuration.classCount, classWeights.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw TensorError.invalidArgument(op: "DetectionLoss", reason: "\(classWeights.count) class weights for \(configuration.classCount) classes, or a weight that is negative or not finite")
        }
        if let mask = settings.distillation.classMask, mask.count != configuration.classCount {
            throw TensorError.invalidArgument(op: "DetectionLoss", reason: "distillation class mask has \(mask.count) entries for \(configuration.classCount) classes")
        }
        self.configuration = configuration
        self.settings = settings
        self.classWeights = classWeights.allSatisfy { $0 == 1 } ? nil : classWeights
        decoder = try HeadDecoder(configuration: configuration)
        staticAssigner = ATSSAssigner(head: decoder, minimumPositives: settings.minimumPositives, withinReach: settings.withinReach,
                                      smallestWins: settings.smallestWins)
        alignedAssigner = decoder.points.map { TaskAlignedAssigner(points: $0) }
    }

    /// Targets of one batch, built from the assignment (no gradient flows through them).
    struct Targets {
        var classification: Tensor
        var positiveRows: [Int] = []
        /// The class of each positive's ground truth.
        var positiveClasses: [Int] = []
        var boxes: [Float] = []
        var pointXY: [Float] = []
        var strides: [Float] = []
        var distances: [Float] = []
        var offsets: [Float] = []
        var weights: [Float] = []
    }

    /// `outputs` are the model's flat head values for `targets.count` images; boxes in input pixels.
    /// `unlabeledClasses` (per image, or nil): classes an image does not mark, whose classification
    /// logits on that image get no loss — neither positive nor negative (a screen from a dataset
    /// that never annotates sliders says nothing about sliders). Boxes of the other classes are
    /// assigned and regressed as usual.
    /// `teacher`: a teacher's head values on the same images (its outputs' shape), adding the
    /// distillation terms `kd` and `ld` (`Distillation.swift`).
    public func callAsFunction(_ outputs: Variable, targets: [[Annotation]], unlabeledClasses: [Set<Int>]? = nil,
                               taskAligned: Bool, teacher: Tensor? = nil) throws -> (total: Variable, terms: [(name: String, value: Float)]) {
        let k = configuration.classCount, count = decoder.priorCount
        guard outputs.shape == [targets.count * count, configuration.outputsPerPrior] else {
            throw TensorError.shapeMismatch(op: "DetectionLoss", shapes: [outputs.shape, [targets.count * count, configuration.outputsPerPrior]],
                                            reason: "head values do not match \(targets.count) images of \(count) priors")
        }
        if let teacher, teacher.shape != outputs.shape {
            throw TensorError.shapeMismatch(op: "DetectionLoss", shapes: [teacher.shape, outputs.shape], reason: "the teacher's head values differ in shape from the student's")
        }
        let t = try outputs.tape.timed(as: "target assignment") {
            try assign(outputs.value, targets: targets, taskAligned: taskAligned && alignedAssigner != nil)
        }
        let localWeightSum = t.weights.reduce(0, +)
        var positives = Float(max(t.positiveRows.count, 1))
        var weightSum = max(localWeightSum, 1e-6)
        if let sumNormalizers {
            // Every rank calls this, with or without positives of its own, so the ranks stay in step.
            let sums = try sumNormalizers([Double(t.positiveRows.count), Double(localWeightSum)])
            positives = Float(max(sums[0], 1))
            weightSum = Float(max(sums[1], 1e-6))
        }
        let logits = try outputs.slice(axis: 1, 0..<k)
        let elementWeights = try classificationWeights(rows: outputs.shape[0], images: targets.count, unlabeledClasses: unlabeledClasses)
        let classification: Variable
        switch settings.classification {
        case .qualityFocal:
            classification = try logits.qualityFocalLoss(targets: t.classification, beta: settings.qualityBeta, weights: elementWeights, reduction: .sum)
        case .varifocal:
            classification = try logits.varifocalLoss(targets: t.classification, weights: elementWeights, reduction: .sum)
        case .focal:
            let hard = t.classification.mappedToHardTargets()
            classification = try logits.sigmoidFocalLoss(targets: hard, alpha: settings.focalAlpha, gamma: settings.focalGamma, weights: elementWeights, reduction: .sum)
        }
        // Terms are reported weighted, so they add up to the total and an overflow names its term.
        var total = classification.scaled(by: settings.classificationWeight / positives)
        var terms = [(name: "cls", value: total.value.scalarValue)]
        if let teacher {
            let kd = try classDistillation(logits, teacher: teacher, weights: elementWeights).scaled(by: settings.distillation.classification / positives)
            total = try total + kd
            terms.append(("kd", kd.value.scalarValue))
        }
        let m = t.positiveRows.count
        guard m > 0 else {
            terms += decoder.points != nil ? [("giou", 0), ("dfl", 0)] : [("box", 0)]
            if teacher != nil && decoder.points != nil { terms.append(("ld", 0)) }
            return (total, terms)
        }
        // Rows first, then columns: the slice copies the positives' rows only (~500 of ~21,500 at
        // batch 8), and the backward scatters them once instead of zero-filling two full-size
        // gradients. Pure data movement either way, so the same values and gradients.
        let regression = try outputs.gather(axis: 0, indices: t.positiveRows).slice(axis: 1, k..<configuration.outputsPerPrior)
        if decoder.points != nil {
            let bins = configuration.distributionBins
            let weights = try Tensor(shape: [m], values: t.weights)
            let distributions = try regression.reshaped([m, 4, bins])
            let boxes = try distributions.distributionExpectation()
                .distancesToBoxes(points: Tensor(shape: [m, 2], values: t.pointXY), scales: Tensor(shape: [m], values: t.strides))
            let giou = try boxes.generalizedIoULoss(targets: Tensor(shape: [m, 4], values: t.boxes), weights: weights, reduction: .sum)
            let dfl = try distributions.distributionFocalLoss(targets: Tensor(shape: [m, 4], values: t.distances), weights: weights, reduction: .sum)
            let weightedGIoU = giou.scaled(by: settings.boxWeight / weightSum)
            let weightedDFL = dfl.scaled(by: settings.distributionWeight / (4 * weightSum))
            total = try total + weightedGIoU + weightedDFL
            terms += [("giou", weightedGIoU.value.scalarValue), ("dfl", weightedDFL.value.scalarValue)]
            if let teacher {
                let ld = try localizationDistillation(distributions, teacher: teacher, rows: t.positiveRows,
                                                      weights: taughtPositiveWeights(t.weights, classes: t.positiveClasses))
                    .scaled(by: settings.distillation.localization / (4 * weightSum))
                total = try total + ld
                terms.append(("ld", ld.value.scalarValue))
            }
        } else {
            // Smooth-L1 with β = 1/9 on the variance-scaled offsets, as Detectron's RetinaNet.
            let box = try regression.smoothL1(targets: Tensor(shape: [m, 4], values: t.offsets), beta: 1.0 / 9, reduction: .sum)
            let weightedBox = box.scaled(by: settings.boxWeight / positives)
            total = try total + weightedBox
            terms.append(("box", weightedBox.value.scalarValue))
        }
        return (total, terms)
    }

    /// Per-element weights of the classification loss ([rows, K]): the class-balance weights,
    /// zero on each image's unlabeled classes; nil when every weight would be 1 (the loss then
    /// runs unweighted, as before mixing existed, with the same bits).
    func classificationWeights(rows: Int, images: Int, unlabeledClasses: [Set<Int>]?) throws -> Tensor? {
        let k = configuration.classCount
        let masks = unlabeledClasses.flatMap { $0.contains { !$0.isEmpty } ? $0 : nil }
        if let masks {
            guard masks.count == images else {
                throw TensorError.shapeMismatch(op: "DetectionLoss", shapes: [[masks.count], [images]],
                                                reason: "unlabeled classes given for \(masks.count) images, targets for \(images)")
            }
            if let bad = masks.lazy.flatMap({ $0 }).first(where: { !(0..<k).contains($0) }) {
                throw TensorError.invalidArgument(op: "DetectionLoss", reason: "unlabeled class \(bad) is not one of the \(k) classes")
            }
        }
        guard classWeights != nil || masks != nil else { return nil }
        let perImage = rows / max(images, 1)
        var weights = Tensor(uninitialized: [rows, k])
        weights.withUnsafeMutableBufferPointer { p in
            for r in 0..<rows {
                for c in 0..<k { p[r * k + c] = classWeights?[c] ?? 1 }
                if let masks { for c in masks[r / perImage] { p[r * k + c] = 0 } }
            }
        }
        return weights
    }

    func assign(_ values: Tensor, targets: [[Annotation]], taskAligned: Bool) throws -> Targets {
        let k = configuration.classCount, count = decoder.priorCount
        var result = Targets(classification: try Tensor(zeros: [targets.count * count, k]))
        let maximumDistance = Float(configuration.distributionBins - 1) - 0.01
        // ATSS depends on each image's boxes alone: the images' assignments run in parallel.
        var staticAssignments = [TargetAssignment?](repeating: nil, count: targets.count)
        if !taskAligned || alignedAssigner == nil {
            staticAssignments.withUnsafeMutableBufferPointer { slots in
                let slots = slots
                Parallel.forEach(targets.count) { image in
                    if !targets[image].isEmpty { slots[image] = staticAssigner.assign(targets[image]).targets }
                }
            }
        }
        for (image, groundTruths) in targets.enumerated() where !groundTruths.isEmpty {
            var soft: [Float]?
            let assignment: TargetAssignment, decoded: HeadDecoder.Decoded
            /// Row of `decoded` holding the i-th positive, prior p.
            let decodedRow: (_ i: Int, _ p: Int) -> Int
            if taskAligned, let alignedAssigner {
                decoded = decoder.decode(values, image: image)
                let aligned = alignedAssigner.assign(classProbabilities: decoded.probabilities, classCount: k,
                                                     predictedBoxes: decoded.boxes, groundTruths: groundTruths)
                assignment = aligned.targets
                soft = aligned.softTargets
                decodedRow = { _, p in p }
            } else {
                // ATSS looks at priors only, so the head is decoded at the positives alone.
                assignment = staticAssignments[image]!
                decoded = decoder.decode(values, image: image, priors: assignment.positiveIndices)
                decodedRow = { i, _ in i }
            }
            for (i, p) in assignment.positiveIndices.enumerated() {
                let gt = groundTruths[assignment.groundTruthIndex[p]]
                let row = image * count + p, d = decodedRow(i, p)
                let predicted = Array(decoded.boxes[4 * d..<4 * d + 4])
                // GFL's quality target: the IoU of the current prediction with its ground truth.
                let quality = soft?[p] ?? Float(intersectionOverUnion(x1: Double(predicted[0]), y1: Double(predicted[1]),
                                                                      x2: Double(predicted[2]), y2: Double(predicted[3]), gt.box))
                result.classification[flat: row * k + gt.classIndex] = min(1, max(0, quality))
                result.positiveRows.append(row)
                result.positiveClasses.append(gt.classIndex)
                let box = [Float(gt.box.minX), Float(gt.box.minY), Float(gt.box.maxX), Float(gt.box.maxY)]
                result.boxes += box
                // Each positive's box losses count by how sure the head already is (GFL's weight_targets).
                result.weights.append(decoded.probabilities[d * k..<(d + 1) * k].max() ?? 0)
                if let points = decoder.points {
                    let (x, y, s) = (points.x[p], points.y[p], points.stride[p])
                    result.pointXY += [x, y]
                    result.strides.append(s)
                    result.distances += [(x - box[0]) / s, (y - box[1]) / s, (box[2] - x) / s, (box[3] - y) / s].map { min(max($0, 0), maximumDistance) }
                } else if let anchors = decoder.anchors {
                    let offsets = decoder.coder.encode(gt.box, anchor: anchors.anchor(at: p))
                    result.offsets += [offsets[0], offsets[1], offsets[2], offsets[3]]
                }
            }
        }
        return result
    }
}

extension Tensor {
    /// 1 where a soft target is positive, else 0 (focal loss wants hard labels).
    func mappedToHardTargets() -> Tensor {
        var out = Tensor(uninitialized: shape)
        out.withUnsafeMutableBufferPointer { o in for i in 0..<count { o[i] = pointer[i] > 0 ? 1 : 0 } }
        return out
    }
}
