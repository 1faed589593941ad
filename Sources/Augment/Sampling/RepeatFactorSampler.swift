import Foundation
import Data
import Support

/// Repeat-factor sampling (Gupta et al., "LVIS", CVPR 2019, §3): class c's factor is
/// r_c = max(1, √(t / f_c)) with f_c the share of images containing c; an image's factor is
/// the largest r_c over its classes (1 for an image without boxes). Each epoch repeats image i
/// ⌊r_i⌋ times plus once more with probability r_i − ⌊r_i⌋ (stochastic rounding), so that its
/// expected count is r_i, then shuffles — all from the seed and the epoch number. Screen factors
/// (`ScreenRepeatRule`) multiply r_i.
public struct RepeatFactorSampler {
    public let threshold: Double
    /// r_i per image, in the order the sampler was given.
    public let imageFactors: [Double]
    /// r_c per class index that occurs.
    public let classFactors: [Int: Double]

    /// `screenFactors`: one per image (≥ 1) multiplying its factor, or empty for none.
    public init(imageClasses: [Set<Int>], threshold: Double, screenFactors: [Double] = []) {
        precondition(screenFactors.isEmpty || screenFactors.count == imageClasses.count, "one screen factor per image")
        self.threshold = threshold
        let imageCount = Double(max(1, imageClasses.count))
        var imagesWithClass: [Int: Int] = [:]
        for classes in imageClasses { for c in classes { imagesWithClass[c, default: 0] += 1 } }
        let classFactors = imagesWithClass.mapValues { count -> Double in
            Self.classFactor(share: Double(count) / imageCount, threshold: threshold)
        }
        self.classFactors = classFactors
        let classImageFactors = imageClasses.map { classes in classes.map { classFactors[$0]! }.max() ?? 1 }
        imageFactors = screenFactors.isEmpty ? classImageFactors : zip(classImageFactors, screenFactors).map { $0 * $1 }
    }

    public init(annotations: [[Annotation]], threshold: Double, screenFactors: [Double] = []) {
        self.init(imageClasses: annotations.map { Set($0.map(\.classIndex)) }, threshold: threshold, screenFactors: screenFactors)
    }

    /// max(1, √(t / f)); a threshold of 0 gives 1 (no repeats).
    public static func classFactor(share: Double, threshold: Double) -> Double {
        guard threshold > 0, share > 0 else { return 1 }
        return max(1, (threshold / share).squareRoot())
    }

    /// Positions into the image list for one epoch: repeated by stochastic rounding, shuffled.
    public func epochOrder(seed: UInt64, epoch: Int) -> [Int] {
        var random = SeededRandom.stream(seed: seed, index: UInt64(epoch) &* 2 &+ 1)
        var order: [Int] = []
        order.reserveCapacity(Int(imageFactors.reduce(0, +).rounded(.up)))
        for (index, factor) in imageFactors.enumerated() {
            let whole = Int(factor.rounded(.down))
            let repeats = whole + (random.uniform() < factor - Double(whole) ? 1 : 0)
            for _ in 0..<repeats { order.append(index) }
        }
        order.shuffle(using: &random)
        return order
    }

    /// Expected images per epoch: Σ r_i.
    public var expectedEpochLength: Double { imageFactors.reduce(0, +) }
}
