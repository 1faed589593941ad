/// Forward and backward time per label, accumulated over profiled runs of a `Tape`.
///
/// A label is the layer role an op ran under (`Tape.profiled(as:)`, e.g. "pointwise 1×1"),
/// or the op kind's name for ops outside any labelled layer. Labels keep the order in which
/// the forward pass first reached them, so a table reads in model order.
public final class OpProfile {
    public struct Entry: Equatable {
        public let label: String
        /// Forward op calls (one layer may record several ops).
        public var calls = 0
        public var forwardNanoseconds: UInt64 = 0
        public var backwardNanoseconds: UInt64 = 0
    }

    public private(set) var entries: [Entry] = []
    private var indexByLabel: [String: Int] = [:]

    public init() {}

    public subscript(label: String) -> Entry? { indexByLabel[label].map { entries[$0] } }

    func add(_ label: String, forward: Bool, nanoseconds: UInt64) {
        let index: Int
        if let known = indexByLabel[label] {
            index = known
        } else {
            index = entries.count
            indexByLabel[label] = index
            entries.append(Entry(label: label))
        }
        if forward {
            entries[index].forwardNanoseconds += nanoseconds
            entries[index].calls += 1
        } else {
            entries[index].backwardNanoseconds += nanoseconds
        }
    }

    public func reset() { entries = []; indexByLabel = [:] }
}
