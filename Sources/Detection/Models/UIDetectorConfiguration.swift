import Tensor

/// The shape of a `UIDetector`: MobileNetV1 + FPN + a head, anchor-free (the default) or the
/// Screen Recognition paper's SSD-style anchored one. Model configs (`Configs/models/*.yaml`,
/// architecture `ui-detector`) set these through `architecture.options`.
public struct UIDetectorConfiguration: Equatable, Sendable {
    public enum HeadKind: String, CaseIterable, Sendable {
        /// GFL / NanoDet-Plus family: one prior per cell, a joint class-and-quality score per
        /// class, each box side as a distribution over `distributionBins` bins.
        case anchorFree = "anchor-free"
        /// SSD / Screen Recognition: `anchorsPerCell` anchors per cell, class logits + 4 box offsets each.
        case anchored
    }

    public var head: HeadKind
    public var classCount: Int
    public var widthMultiplier: Double
    public var fpnChannels: Int
    /// Adds a stride-4 level below the usual 8/16/32, for elements a few pixels high.
    public var includeStride4: Bool
    /// Depthwise-separable blocks in each level's anchor-free head before its output 1×1.
    public var headConvolutions: Int
    /// Bins of each box side's distribution (GFL's reg_max + 1). A side reaches (bins − 1) ×
    /// stride: NanoDet-Plus's 8 stop at 56 px on stride 8, too short for the wide, thin UI
    /// elements ATSS assigns there, so the default is 16.
    public var distributionBins: Int
    public var anchorsPerCell: Int
    /// Model input, height × width (portrait screens); multiples of 32.
    public var inputHeight: Int
    public var inputWidth: Int

    public init(head: HeadKind = .anchorFree, classCount: Int = 13, widthMultiplier: Double = 0.5, fpnChannels: Int = 64,
                includeStride4: Bool = false, headConvolutions: Int = 2, distributionBins: Int = 16, anchorsPerCell: Int = 3,
                inputHeight: Int = 512, inputWidth: Int = 256) {
        self.head = head
        self.classCount = classCount
        self.widthMultiplier = widthMultiplier
        self.fpnChannels = fpnChannels
        self.includeStride4 = includeStride4
        self.headConvolutions = headConvolutions
        self.distributionBins = distributionBins
        self.anchorsPerCell = anchorsPerCell
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
    }

    public var strides: [Int] { includeStride4 ? [4, 8, 16, 32] : [8, 16, 32] }
    /// Priors (points or anchors) per feature-map cell.
    public var priorsPerCell: Int { head == .anchorFree ? 1 : anchorsPerCell }
    /// Values per prior in the flattened head output: class logits, then the box encoding.
    public var outputsPerPrior: Int { classCount + boxOutputs }
    public var boxOutputs: Int { head == .anchorFree ? 4 * distributionBins : 4 }

    /// Priors over the whole input, in the head's output order (level, row, column, anchor).
    public var priorCount: Int {
        strides.reduce(0) { $0 + (inputHeight / $1) * (inputWidth / $1) } * priorsPerCell
    }

    /// Bounds that keep a hostile or mistyped config from allocating terabytes: every size is
    /// checked before any layer exists (the largest allowed model is still a few hundred MB).
    static let bounds: [(field: String, range: ClosedRange<Int>)] = [
        ("classCount", 1...1000), ("fpnChannels", 1...1024), ("headConvolutions", 0...8),
        ("distributionBins", 2...64), ("anchorsPerCell", 1...16), ("inputHeight", 32...4096), ("inputWidth", 32...4096),
    ]

    /// Throws, naming the field and its value, when no sensible model can be built from this.
    public func validate() throws {
        let values = [classCount, fpnChannels, headConvolutions, distributionBins, anchorsPerCell, inputHeight, inputWidth]
        for ((field, range), value) in zip(Self.bounds, values) where !range.contains(value) {
            throw TensorError.invalidArgument(op: "UIDetectorConfiguration", reason: "\(field) is \(value); it must be in \(range.lowerBound)…\(range.upperBound)")
        }
        guard widthMultiplier.isFinite, widthMultiplier >= 1.0 / 32, widthMultiplier <= 4 else {
            throw TensorError.invalidArgument(op: "UIDetectorConfiguration", reason: "widthMultiplier is \(widthMultiplier); it must be in 1/32…4")
        }
        guard inputHeight % 32 == 0, inputWidth % 32 == 0 else {
            throw TensorError.invalidArgument(op: "UIDetectorConfiguration", reason: "the input \(inputHeight)×\(inputWidth) (height × width) must be multiples of 32, the coarsest stride")
        }
    }
}

extension UIDetectorConfiguration {
    /// The architecture name model configs and weights headers use.
    public static let architectureName = "ui-detector"

    /// Option keys of `architecture.options`, with what each accepts.
    public static let optionRules: [(key: String, expected: String)] = [
        ("anchors_per_cell", "an integer in 1…16 (anchored head)"),
        ("backbone", "mobilenet_v1"),
        ("distribution_bins", "an integer in 2…64 (anchor-free head)"),
        ("fpn_channels", "an integer in 1…1024"),
        ("head", "anchor-free or anchored"),
        ("head_convolutions", "an integer in 0…8 (anchor-free head)"),
        ("stride4", "true or false"),
        ("width_multiplier", "a number in [0.03125, 4]"),
    ]

    /// The configuration that a model config's options, class count and input size describe;
    /// an unknown option or a bad value throws naming the key, the value and what it accepts.
    public init(options: [String: String], classCount: Int, inputHeight: Int, inputWidth: Int) throws {
        self.init(classCount: classCount, inputHeight: inputHeight, inputWidth: inputWidth)
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            guard let rule = Self.optionRules.first(where: { $0.key == key }) else {
                throw ReferenceDetectorOptionError.unknownOption(key: key, known: Self.optionRules.map(\.key), architecture: Self.architectureName)
            }
            let invalid = ReferenceDetectorOptionError.invalidValue(key: key, value: value, expected: rule.expected)
            func integer(_ range: ClosedRange<Int>) throws -> Int {
                guard let number = Int(value), range.contains(number) else { throw invalid }
                return number
            }
            switch key {
            case "backbone": guard value == "mobilenet_v1" else { throw invalid }
            case "head": guard let kind = HeadKind(rawValue: value) else { throw invalid }; head = kind
            case "width_multiplier":
                guard let number = Double(value), number >= 1.0 / 32, number <= 4 else { throw invalid }
                widthMultiplier = number
            case "fpn_channels": fpnChannels = try integer(1...1024)
            case "head_convolutions": headConvolutions = try integer(0...8)
            case "distribution_bins": distributionBins = try integer(2...64)
            case "anchors_per_cell": anchorsPerCell = try integer(1...16)
            case "stride4":
                guard let flag = Bool(value) else { throw invalid }
                includeStride4 = flag
            default: throw invalid
            }
        }
        try validate()
    }
}
