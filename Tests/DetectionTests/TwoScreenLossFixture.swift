import Data
import Detection
import Support
import Tensor

/// A small anchor-free head (3 classes, 4 bins, 32×64 input) and two screens with one box each:
/// what the detection-loss tests compute on, with seeded random head values.
enum TwoScreenLossFixture {
    static let configuration = UIDetectorConfiguration(head: .anchorFree, classCount: 3, widthMultiplier: 0.25, fpnChannels: 8,
                                                       includeStride4: false, headConvolutions: 1, distributionBins: 4,
                                                       inputHeight: 64, inputWidth: 32)
    static let targets = [[Annotation(classIndex: 1, box: BoundingBox(x: 4, y: 8, width: 24, height: 16))],
                          [Annotation(classIndex: 0, box: BoundingBox(x: 2, y: 40, width: 28, height: 6))]]

    /// Head values for both screens, uniform in −2…2.
    static func values(seed: UInt64) throws -> Tensor {
        var random = SeededRandom(seed: seed)
        let rows = 2 * configuration.priorCount, columns = configuration.outputsPerPrior
        return try Tensor(shape: [rows, columns], values: (0..<rows * columns).map { _ in Float(random.uniform(-2, 2)) })
    }
}
