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

    /// The filters of a stride-1 layer's input gradient (`PackedConv2d.backwardInput`): `weight`
    /// [layerOut, layerIn, taps] rotated 180° with its channel axes swapped, i.e. the layer's input
    /// channels as outputs and depth k = o·taps + t holding `weight[o][i][taps − 1 − t]`. Packed
    /// straight from `weight`: a block's six values at one k are six consecutive input channels,
    /// so the copy reads whole runs instead of transposing through a scattered intermediate
    /// (which took 1.9 ms, single-threaded, for the 512×512 layer). Same values, same layout.
    public init(rotatedTransposeOf weight: UnsafePointer<Float>, layerOutChannels: Int, layerInChannels: Int, taps: Int) {
        precondition(layerOutChannels > 0 && layerInChannels > 0 && taps > 0,
                     "PackedFilters: \(layerOutChannels) outputs, \(layerInChannels) inputs, \(taps) taps")
        let rows = Self.rowsPerBlock
        outChannels = layerInChannels
        depth = layerOutChannels * taps
        blocks = (outChannels + rows - 1) / rows
        values = .allocate(capacity: blocks * depth * rows)
        values.initialize(repeating: 0, count: blocks * depth * rows)
        bias = .allocate(capacity: blocks * rows)
        bias.initialize(repeating: 0, count: blocks * rows)
        for block in 0..<blocks {
            let first = block * rows, count = min(rows, outChannels - first)
            var target = values + block * depth * rows
            for o in 0..<layerOutChannels {
                let filter = weight + (o * layerInChannels + first) * taps
                for t in 0..<taps {
                    let tap = filter + taps - 1 - t
                    for r in 0..<count { target[r] = tap[r * taps] }
                    target += rows
                }
            }
        }
    }

    deinit {
        values.deallocate()
        bias.deallocate()
    }
}
