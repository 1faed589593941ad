import Tensor

/// Shape of the reference detector (Screen Recognition's SSD-style MobileNetV1 + FPN), the
/// one the PyTorch peer in ../shared/peers/torch-reference/detector.py defines.
public struct DetectorConfiguration: Equatable, Codable {
    public var classCount: Int
    public var anchorsPerCell: Int
    public var widthMultiplier: Double
    public var fpnChannels: Int
    /// Model input, height × width (portrait screens).
    public var inputHeight: Int
    public var inputWidth: Int

    public init(classCount: Int = 13, anchorsPerCell: Int = 3, widthMultiplier: Double = 0.5, fpnChannels: Int = 64,
                inputHeight: Int = 512, inputWidth: Int = 256) {
        self.classCount = classCount
        self.anchorsPerCell = anchorsPerCell
        self.widthMultiplier = widthMultiplier
        self.fpnChannels = fpnChannels
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
    }

    public static let reference = DetectorConfiguration()

    /// Outputs per anchor: class logits + 4 box offsets.
    public var outputsPerAnchor: Int { classCount + 4 }
    /// FPN strides of the three output levels.
    public static let strides = [8, 16, 32]

    /// Throws, naming the field and its value, when no model can be built from this.
    public func validate() throws {
        func fail(_ field: String, _ value: Any, _ need: String) -> TensorError {
            TensorError.invalidArgument(op: "DetectorConfiguration", reason: "\(field) is \(value); it must be \(need)")
        }
        guard classCount >= 1 else { throw fail("classCount", classCount, "at least 1") }
        guard anchorsPerCell >= 1 else { throw fail("anchorsPerCell", anchorsPerCell, "at least 1") }
        guard fpnChannels >= 1 else { throw fail("fpnChannels", fpnChannels, "at least 1") }
        guard widthMultiplier.isFinite, widthMultiplier * 32 >= 1 else { throw fail("widthMultiplier", widthMultiplier, "at least 1/32") }
        guard inputHeight >= 1, inputWidth >= 1 else { throw fail("the input size", "\(inputHeight)×\(inputWidth)", "positive (height × width)") }
    }
}
