/// One pyramid level's feature map: `height`×`width` cells of `stride`×`stride` input pixels.
public struct FeatureLevel: Equatable, Sendable {
    public let stride: Int
    public let height: Int
    public let width: Int

    public init(stride: Int, height: Int, width: Int) {
        self.stride = stride; self.height = height; self.width = width
    }

    /// The level a backbone of this stride produces for an input of `inputHeight`×`inputWidth`:
    /// ceil(H / s) × ceil(W / s), which is exact when H and W are multiples of the coarsest
    /// stride (the detector requires multiples of 32).
    public init(stride: Int, inputHeight: Int, inputWidth: Int) {
        precondition(stride > 0 && inputHeight > 0 && inputWidth > 0,
                     "FeatureLevel needs a positive stride and input size, got stride \(stride), input \(inputHeight)×\(inputWidth)")
        self.init(stride: stride, height: (inputHeight + stride - 1) / stride, width: (inputWidth + stride - 1) / stride)
    }

    public var cellCount: Int { height * width }
}

/// The prior points of an anchor-free head: one per feature cell, at the cell centre
/// ((j + 0.5)·s, (i + 0.5)·s) in input pixels.
///
/// Order — the contract with the head's flattened outputs: level by level in `strides` order,
/// and within a level row-major (row i, then column j). Point n of level l is cell
/// (i, j) = ((n − start) / width, (n − start) % width).
public struct PointGrid: Equatable, Sendable {
    public let inputHeight: Int
    public let inputWidth: Int
    public let levels: [FeatureLevel]
    /// The points of each level, in `levels` order.
    public let levelRanges: [Range<Int>]
    /// Cell-centre coordinates in input pixels, one per point.
    public let x: [Float]
    public let y: [Float]
    /// The stride of each point's level, in pixels (distance-to-box heads scale by it).
    public let stride: [Float]
    /// Index into `levels` of each point.
    public let level: [Int]

    public var count: Int { x.count }

    public init(inputHeight: Int, inputWidth: Int, strides: [Int] = DetectorConfiguration.strides) {
        precondition(!strides.isEmpty, "PointGrid needs at least one stride")
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        levels = strides.map { FeatureLevel(stride: $0, inputHeight: inputHeight, inputWidth: inputWidth) }
        var ranges: [Range<Int>] = []
        var x: [Float] = [], y: [Float] = [], stride: [Float] = [], level: [Int] = []
        let total = levels.reduce(0) { $0 + $1.cellCount }
        x.reserveCapacity(total); y.reserveCapacity(total); stride.reserveCapacity(total); level.reserveCapacity(total)
        for (l, feature) in levels.enumerated() {
            let start = x.count
            let s = Float(feature.stride)
            for i in 0..<feature.height {
                for j in 0..<feature.width {
                    x.append((Float(j) + 0.5) * s)
                    y.append((Float(i) + 0.5) * s)
                    stride.append(s)
                    level.append(l)
                }
            }
            ranges.append(start..<x.count)
        }
        levelRanges = ranges
        self.x = x; self.y = y; self.stride = stride; self.level = level
    }

    /// The points whose centre lies strictly inside (x1, x2) × (y1, y2) by more than `margin`,
    /// visited in point order. Only the cells of the box's footprint are visited, so this costs
    /// O(points inside), not O(all points).
    public func forEachPoint(strictlyInsideX1 x1: Double, y1: Double, x2: Double, y2: Double, margin: Double,
                             _ body: (Int) -> Void) {
        guard x1.isFinite, y1.isFinite, x2.isFinite, y2.isFinite else { return }
        // Clamped before Int() so a box far outside the input cannot trap the conversion.
        func cell(_ v: Double, _ rounding: FloatingPointRoundingRule, count: Int) -> Int {
            Int(min(max(v.rounded(rounding), -1), Double(count)))
        }
        for (l, feature) in levels.enumerated() {
            let s = Double(feature.stride)
            // Centre of column j is (j + 0.5)·s; the rounding widens the float estimate and the
            // exact test below decides.
            let columnLow = max(0, cell((x1 + margin) / s - 0.5, .down, count: feature.width))
            let columnHigh = min(feature.width - 1, cell((x2 - margin) / s - 0.5, .up, count: feature.width))
            let rowLow = max(0, cell((y1 + margin) / s - 0.5, .down, count: feature.height))
            let rowHigh = min(feature.height - 1, cell((y2 - margin) / s - 0.5, .up, count: feature.height))
            guard columnLow <= columnHigh, rowLow <= rowHigh else { continue }
            let start = levelRanges[l].lowerBound
            for i in rowLow...rowHigh {
                let py = (Double(i) + 0.5) * s
                guard py - y1 > margin, y2 - py > margin else { continue }
                for j in columnLow...columnHigh {
                    let px = (Double(j) + 0.5) * s
                    if px - x1 > margin, x2 - px > margin { body(start + i * feature.width + j) }
                }
            }
        }
    }
}
