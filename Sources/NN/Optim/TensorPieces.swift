import Kernels

/// Elementwise updates of many tensors in one parallel loop: an optimizer or EMA step touches
/// ~150 tensors, one of 1 M elements and most of a few hundred, and a loop per tensor would be
/// 150 fork-joins of mostly tiny work. Every tensor is cut into pieces of at most `size`
/// elements, and the pieces are spread over the workers. Each element is still updated once,
/// by the same formula, so the results are those of one loop per tensor, bit for bit.
enum TensorPieces {
    static let size = 16_384

    /// Calls `body(tensor, range)` for pieces covering `0..<counts[tensor]` of every tensor.
    static func forEach(counts: [Int], _ body: (_ tensor: Int, _ range: Range<Int>) -> Void) {
        var pieces: [(tensor: Int, range: Range<Int>)] = []
        for (tensor, count) in counts.enumerated() {
            var start = 0
            while start < count {
                pieces.append((tensor, start..<min(count, start + size)))
                start += size
            }
        }
        Parallel.forEach(pieces.count) { body(pieces[$0].tensor, pieces[$0].range) }
    }
}
