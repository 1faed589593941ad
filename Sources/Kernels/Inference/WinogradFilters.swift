/// A dense 3×3 convolution's folded weights moved once into a Winograd domain, for
/// `Winograd3x3`: F(2×2, 3×3) by default — per filter `g` (3×3), `U = G g Gᵀ` (4×4), and the 16
/// points of all filters regrouped as 16 matrices Uₖ [out, in] — or F(4×4, 3×3) (`outputTile` 4:
/// 6×6, 36 matrices; `init(tile4Weight:…)`). Each Uₖ is packed like any dense layer
/// (`PackedFilters`) so the same micro-kernel multiplies them. The transforms are computed in
/// double precision and rounded once; F(2×2)'s coefficients (0, ±½, 1) make it nearly exact in float.
public final class WinogradFilters: @unchecked Sendable {
    public let outChannels: Int
    public let inChannels: Int
    /// The side of the output tile each transformed patch gives: 2 (F(2×2, 3×3)) or 4 (F(4×4, 3×3)).
    public let outputTile: Int
    /// Uₖ for k = (tile + 2)·i + j (row i, column j of U), with zero bias: the bias is added after
    /// the output transform, since the transform of a constant is not a constant.
    let points: [PackedFilters]
    /// [outChannels]; immutable after init.
    let bias: UnsafeMutablePointer<Float>

    /// `weight` [outChannels, inChannels, 3, 3] (as `FoldedConvolution.weight`), `bias` [outChannels].
    public convenience init(weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, outChannels: Int, inChannels: Int) {
        self.init(weight: weight, bias: bias, outChannels: outChannels, inChannels: inChannels,
                  g: [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]])
    }

    /// The same weights in F(4×4, 3×3)'s domain (Lavin & Gray's points 0, ±1, ±2, ∞): 36 matrices
    /// for 16 outputs a patch, 1.78× fewer multiply-adds than F(2×2, 3×3) but coefficients up to
    /// 8 in the output transform, so rounding grows (`Winograd3x3F4`).
    public convenience init(tile4Weight weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, outChannels: Int, inChannels: Int) {
        self.init(weight: weight, bias: bias, outChannels: outChannels, inChannels: inChannels,
                  g: [[1.0 / 4, 0, 0], [-1.0 / 6, -1.0 / 6, -1.0 / 6], [-1.0 / 6, 1.0 / 6, -1.0 / 6],
                      [1.0 / 24, 1.0 / 12, 1.0 / 6], [1.0 / 24, -1.0 / 12, 1.0 / 6], [0, 0, 1]])
    }

    /// `U = G g Gᵀ` in double for each filter, G with `tile + 2` rows.
    private convenience init(weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, outChannels: Int, inChannels: Int, g: [[Double]]) {
        precondition(outChannels > 0 && inChannels > 0, "WinogradFilters: \(outChannels) outputs × \(inChannels) inputs")
        let side = g.count, matrix = outChannels * inChannels
        let transformed = Workspace(count: side * side * matrix)
        defer { transformed.free() }
        for o in 0..<outChannels {
            for c in 0..<inChannels {
                let filter = weight + (o * inChannels + c) * 9
                for i in 0..<side {
                    for j in 0..<side {
                        var sum = 0.0
                        for a in 0..<3 {
                            for b in 0..<3 { sum += g[i][a] * Double(filter[a * 3 + b]) * g[j][b] }
                        }
                        transformed.pointer[(side * i + j) * matrix + o * inChannels + c] = Float(sum)
                    }
                }
            }
        }
        self.init(transformedPoints: UnsafePointer(transformed.pointer), bias: bias, outChannels: outChannels, inChannels: inChannels,
                  tile: side - 2)
    }

    /// The matrices Uₖ already computed, [points][outChannels][inChannels] (16 points for tile 2,
    /// 36 for tile 4), and `bias` [outChannels] or nil for none (zeros), as `PackedFilters` takes it.
    init(transformedPoints u: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outChannels: Int, inChannels: Int, tile: Int = 2) {
        self.outChannels = outChannels
        self.inChannels = inChannels
        outputTile = tile
        points = (0..<Winograd3x3.points(tile: tile)).map { k in
            PackedFilters(weight: u + k * outChannels * inChannels, bias: nil, outChannels: outChannels, depth: inChannels)
        }
        self.bias = .allocate(capacity: outChannels)
        if let bias { self.bias.initialize(from: bias, count: outChannels) } else { self.bias.initialize(repeating: 0, count: outChannels) }
    }

    deinit { bias.deallocate() }
}
