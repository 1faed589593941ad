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
    public convenience init(weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, outChannels: Int, inChannels: Int) {
        precondition(outChannels > 0 && inChannels > 0, "WinogradFilters: \(outChannels) outputs × \(inChannels) inputs")
        let g: [[Double]] = [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]]
        let matrix = outChannels * inChannels
        let transformed = Workspace(count: 16 * matrix)
        defer { transformed.free() }
        for o in 0..<outChannels {
            for c in 0..<inChannels {
                let filter = weight + (o * inChannels + c) * 9
                for i in 0..<4 {
                    for j in 0..<4 {
                        var sum = 0.0
                        for a in 0..<3 {
                            for b in 0..<3 { sum += g[i][a] * Double(filter[a * 3 + b]) * g[j][b] }
                        }
                        transformed.pointer[(4 * i + j) * matrix + o * inChannels + c] = Float(sum)
                    }
                }
            }
        }
        self.init(transformedPoints: UnsafePointer(transformed.pointer), bias: bias, outChannels: outChannels, inChannels: inChannels)
    }

    /// The 16 matrices Uₖ already computed, [16][outChannels][inChannels], and `bias` [outChannels]
    /// or nil for none (zeros), as `PackedFilters` takes it.
    init(transformedPoints u: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outChannels: Int, inChannels: Int) {
        self.outChannels = outChannels
        self.inChannels = inChannels
        points = (0..<16).map { k in
            PackedFilters(weight: u + k * outChannels * inChannels, bias: nil, outChannels: outChannels, depth: inChannels)
        }
        self.bias = .allocate(capacity: outChannels)
        if let bias { self.bias.initialize(from: bias, count: outChannels) } else { self.bias.initialize(repeating: 0, count: outChannels) }
    }

    deinit { bias.deallocate() }
}
