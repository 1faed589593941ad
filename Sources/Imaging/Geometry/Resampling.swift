/// How `resized` computes each output pixel.
public enum Resampling: String, Codable, Sendable, CaseIterable {
    /// Bilinear with half-pixel centres: output pixel d samples source position
    /// (d + 0.5)·src/dst − 0.5, clamped to the edge pixels — the same as OpenCV INTER_LINEAR.
    case bilinear
    /// Box filter: output pixel d averages source interval [d·s, (d + 1)·s), s = src/dst,
    /// weighting partly covered pixels by their coverage — OpenCV INTER_AREA when shrinking.
    /// Along an axis that grows, it is bilinear (a box narrower than a pixel is not a filter).
    case area

    /// Area when the image shrinks (bilinear aliases thin UI strokes away), bilinear otherwise.
    public static func automatic(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) -> Resampling {
        targetWidth < sourceWidth || targetHeight < sourceHeight ? .area : .bilinear
    }
}

/// Per-axis taps: output index d reads `indices[starts[d]..<starts[d+1]]` with `weights`.
/// Computed once per resize and axis, so the pixel loops only multiply and add.
struct ResampleTable {
    var starts: [Int]
    var indices: [Int]
    var weights: [Float]

    init(source: Int, target: Int, resampling: Resampling) {
        starts = [0]
        indices = []
        weights = []
        starts.reserveCapacity(target + 1)
        if resampling == .area && target < source {
            buildArea(source: source, target: target)
        } else {
            buildBilinear(source: source, target: target)
        }
    }

    private mutating func buildBilinear(source: Int, target: Int) {
        let ratio = Double(source) / Double(target)
        indices.reserveCapacity(target * 2)
        weights.reserveCapacity(target * 2)
        for d in 0..<target {
            let position = (Double(d) + 0.5) * ratio - 0.5
            var left = Int(position.rounded(.down))
            var fraction = position - Double(left)
            if left < 0 { left = 0; fraction = 0 }
            if left >= source - 1 { left = source - 1; fraction = 0 }
            indices.append(left); weights.append(Float(1 - fraction))
            indices.append(min(left + 1, source - 1)); weights.append(Float(fraction))
            starts.append(indices.count)
        }
    }

    private mutating func buildArea(source: Int, target: Int) {
        let ratio = Double(source) / Double(target)
        for d in 0..<target {
            let begin = Double(d) * ratio, end = min(Double(d + 1) * ratio, Double(source))
            var i = Int(begin.rounded(.down))
            while Double(i) < end && i < source {
                let covered = min(end, Double(i + 1)) - max(begin, Double(i))
                if covered > 1e-9 {
                    indices.append(i)
                    weights.append(Float(covered / ratio))
                }
                i += 1
            }
            starts.append(indices.count)
        }
    }
}

/// A `ResampleTable` with the same number of taps for every output index: the shorter lists end
/// in taps of weight 0 on their last index. Such a tap adds +0 to a sum ≥ 0.5, so every output is
/// bit for bit the table's; the fixed count keeps the pixel loop free of branches that the
/// alternating 2- and 3-tap lists of a fractional shrink would mispredict.
struct UniformTaps {
    let taps: Int
    var indices: [Int]
    var weights: [Float]

    init(_ table: ResampleTable) {
        let target = table.starts.count - 1
        var taps = 1
        for d in 0..<target { taps = max(taps, table.starts[d + 1] - table.starts[d]) }
        self.taps = taps
        indices = []; weights = []
        indices.reserveCapacity(target * taps); weights.reserveCapacity(target * taps)
        for d in 0..<target {
            let range = table.starts[d]..<table.starts[d + 1]
            indices.append(contentsOf: table.indices[range]); weights.append(contentsOf: table.weights[range])
            for _ in range.count..<taps { indices.append(table.indices[range.upperBound - 1]); weights.append(0) }
        }
    }
}
