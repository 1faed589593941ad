/// A dense convolution's folded weights, repacked once for `PackedConv2d`'s micro-kernel.
///
/// The weights [out, in·kh·kw] are cut into blocks of `rowsPerBlock` output channels, each
/// stored k-major ([depth][6]), so the micro-kernel reads one block as one sequential stream
/// (six broadcasts per k step). OpenBLAS repacks the weight matrix on every GEMM call — for a
/// 512×512 pointwise layer that is 1 MB copied per call, per panel; here it happens once, when
/// the inference model is built. The last block's missing channels are zero weights and zero
/// bias: the kernel computes them and the store drops them.
public final class PackedFilters: @unchecked Sendable {
    /// Output channels per block: the micro-kernel's rows.
    public static let rowsPerBlock = 6

    public let outChannels: Int
    /// Multiply-adds per output value: in·kh·kw.
    public let depth: Int
    let blocks: Int
    /// [blocks][depth][rowsPerBlock]; immutable after init (shared by the workers).
    let values: UnsafeMutablePointer<Float>
    /// [blocks][rowsPerBlock].
    let bias: UnsafeMutablePointer<Float>

    /// `weight` [outChannels, depth] (row-major, as `FoldedConvolution.weight`), `bias` [outChannels]
    /// or nil for none (zeros).
    public init(weight: UnsafePointer<Float>, bias: UnsafePointer<Float>?, outChannels: Int, depth: Int) {
        precondition(outChannels > 0 && depth > 0, "PackedFilters: \(outChannels) outputs × depth \(depth)")
        let rows = Self.rowsPerBlock
        self.outChannels = outChannels
        self.depth = depth
        blocks = (outChannels + rows - 1) / rows
        values = .allocate(capacity: blocks * depth * rows)
        values.initialize(repeating: 0, count: blocks * depth * rows)
        self.bias = .allocate(capacity: blocks * rows)
        self.bias.initialize(repeating: 0, count: blocks * rows)
        for o in 0..<outChannels {
            let block = values + (o / rows) * depth * rows + o % rows
            let source = weight + o * depth
            for k in 0..<depth { block[k * rows] = source[k] }
            if let bias { self.bias[o] = bias[o] }
        }
    }

    deinit {
        values.deallocate()
        bias.deallocate()
    }
}
