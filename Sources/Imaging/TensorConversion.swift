import Tensor

/// Per-channel normalization applied when pixels become network input:
/// `value = (pixel / 255 − mean[c]) / std[c]`, channels in R, G, B order.
public struct PixelNormalization: Equatable, Codable, Sendable {
    public let mean: [Float]
    public let std: [Float]

    /// Pixels scaled to [0, 1]: mean 0, std 1.
    public static let unit = PixelNormalization(mean: [0, 0, 0], std: [1, 1, 1])
    /// The ImageNet statistics torchvision's pretrained backbones expect.
    public static let imagenet = PixelNormalization(mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225])

    public init(mean: [Float], std: [Float]) {
        precondition(PixelNormalization.problem(mean: mean, std: std) == nil,
                     "PixelNormalization: \(PixelNormalization.problem(mean: mean, std: std) ?? "")")
        self.mean = mean
        self.std = std
    }

    /// Configs are user input: a wrong count or a zero std is a decoding error naming the key.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let mean = try container.decode([Float].self, forKey: .mean)
        let std = try container.decode([Float].self, forKey: .std)
        if let problem = PixelNormalization.problem(mean: mean, std: std) {
            let key: CodingKeys = problem.hasPrefix("mean") ? .mean : .std
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: problem)
        }
        self.init(mean: mean, std: std)
    }

    private enum CodingKeys: String, CodingKey { case mean, std }

    public static func problem(mean: [Float], std: [Float]) -> String? {
        if mean.count != 3 || !mean.allSatisfy(\.isFinite) {
            return "mean needs 3 finite values (R, G, B in 0…1 units), got \(mean)"
        }
        if std.count != 3 || !std.allSatisfy({ $0.isFinite && $0 > 0 }) {
            return "std needs 3 finite positive values (R, G, B in 0…1 units), got \(std)"
        }
        return nil
    }

    /// value[c][v] for every byte v: the conversion loop becomes a table lookup.
    func lookupTables() -> [[Float]] {
        (0..<3).map { c in (0..<256).map { v in (Float(v) / 255 - mean[c]) / std[c] } }
    }
}

extension RGBImage {
    /// Writes the image as three planes (R, G, B), each `height × width` row-major, to
    /// `target[0 ..< 3·width·height]` — one item of an NCHW batch.
    public func writeCHW(into target: UnsafeMutablePointer<Float>, normalization: PixelNormalization) {
        let tables = normalization.lookupTables()
        let planeSize = width * height
        tables[0].withUnsafeBufferPointer { red in
            tables[1].withUnsafeBufferPointer { green in
                tables[2].withUnsafeBufferPointer { blue in
                    pixels.withUnsafeBufferPointer { source in
                        let s = source.baseAddress!, r = red.baseAddress!, g = green.baseAddress!, b = blue.baseAddress!
                        let redPlane = target, greenPlane = target + planeSize, bluePlane = target + 2 * planeSize
                        var i = 0
                        while i < planeSize {
                            redPlane[i] = r[Int(s[3 * i])]
                            greenPlane[i] = g[Int(s[3 * i + 1])]
                            bluePlane[i] = b[Int(s[3 * i + 2])]
                            i += 1
                        }
                    }
                }
            }
        }
    }

    /// The image as a `[1, 3, height, width]` tensor.
    public func tensor(normalization: PixelNormalization) -> Tensor {
        var tensor = Tensor(uninitialized: [1, 3, height, width])
        tensor.withUnsafeMutableBufferPointer { writeCHW(into: $0.baseAddress!, normalization: normalization) }
        return tensor
    }

    /// Inverts `tensor(normalization:)` for looking at network inputs: accepts `[3, H, W]` or
    /// `[N, 3, H, W]` (item `batchIndex`); values are rounded and clamped to 0…255, NaN → 0.
    public init(tensor: Tensor, batchIndex: Int = 0, normalization: PixelNormalization) throws {
        let shape = tensor.shape
        let isBatch = shape.count == 4
        guard (shape.count == 3 || isBatch), shape[isBatch ? 1 : 0] == 3 else {
            throw TensorError.shapeMismatch(op: "RGBImage(tensor:)", shapes: [shape],
                                            reason: "expected [3, H, W] or [N, 3, H, W] (channels R, G, B)")
        }
        let batch = isBatch ? shape[0] : 1
        guard (0..<batch).contains(batchIndex) else {
            throw TensorError.invalidArgument(op: "RGBImage(tensor:)", reason: "batch index \(batchIndex) outside 0..<\(batch)")
        }
        let height = shape[shape.count - 2], width = shape[shape.count - 1]
        let planeSize = width * height
        let source = tensor.pointer + batchIndex * 3 * planeSize
        var bytes = [UInt8](repeating: 0, count: planeSize * 3)
        bytes.withUnsafeMutableBufferPointer { target in
            for c in 0..<3 {
                let plane = source + c * planeSize
                let scale = normalization.std[c] * 255, offset = normalization.mean[c] * 255
                var i = 0
                while i < planeSize {
                    let value = plane[i] * scale + offset
                    // NaN fails both comparisons and stays 0.
                    target[3 * i + c] = value >= 255 ? 255 : value > 0 ? UInt8(value + 0.5) : 0
                    i += 1
                }
            }
        }
        self.init(width: width, height: height, pixels: bytes)
    }
}
