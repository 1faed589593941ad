/// A dense 3×3 convolution's folded weights moved once into the Winograd F(2×2, 3×3) domain,
/// for `Winograd3x3`: per filter `g` (3×3), `U = G g Gᵀ` (4×4), and the 16 points of all filters
/// regrouped as 16 matrices Uₖ [out, in], each packed like any dense layer (`PackedFilters`) so
/// the same micro-kernel multiplies them. The transform is computed in double precision; its
/// coefficients (0, ±½, 1) make it nearly exact in float.
public final class WinogradFilters: @unchecked Sendable {
    public let outChannels: Int
    public let inChannels: Int
    /// Uₖ for k = 4i + j (row i, column j of U), with zero bias: the bias is added after the
    /// output transform, since the transform of a constant is not a constant.
    let points: [PackedFilters]
    /// [outChannels]; immutable after init.
    let bias: UnsafeMutablePointer<Float>

    /// `weight` [outChannels, inChannels, 3, 3] (as `FoldedConvolution.weight`), `bias` [outChannels].
    public init(weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, outChannels: Int, inChannels: Int) {
        precondition(outChannels > 0 && inChannels > 0, "WinogradFilters: \(outChannels) outputs × \(inChannels) inputs")
        self.outChannels = outChannels
        self.inChannels = inChannels
        let g: [[Double]] = [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]]
        var transformed = [[Float]](repeating: [Float](repeating: 0, count: outChannels * inChannels), count: 16)
        for o in 0..<outChannels {
            for c in 0..<inChannels {
                let filter = weight + (o * inChannels + c) * 9
                for i in 0..<4 {
                    for j in 0..<4 {
                        var sum = 0.0
                        for a in 0..<3 {
                            for b in 0..<3 { sum += g[i][a] * Double(filter[a * 3 + b]) * g[j][b] }
                        }
                        transformed[4 * i + j][o * inChannels + c] = Float(sum)
                    }
                }
            }
        }
        points = transformed.map { u in
            u.withUnsafeBufferPointer { u in
                PackedFilters(weight: u.baseAddress!, bias: nil, outChannels: outChannels, depth: inChannels)
            }
        }
        self.bias = .allocate(capacity: outChannels)
        self.bias.initialize(from: bias, count: outChannels)
    }

    deinit { bias.deallocate() }
}
