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
}
