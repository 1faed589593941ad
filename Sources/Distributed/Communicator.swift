import Foundation

/// The processes of one data-parallel run and the few collectives training needs. Every
/// collective is called by every rank in the same order (the trainer's loop guarantees it); a
/// rank that cannot go on ends the whole job (`abort`) rather than leave the others waiting.
public protocol Communicator: AnyObject {
    var rank: Int { get }
    var size: Int { get }
    /// The host of each rank, in rank order (the same on every rank).
    var hosts: [String] { get }
    /// Replaces `buffer` with the sum over ranks, added in rank order ((x₀ + x₁) + x₂ …) whatever
    /// the library's own algorithms would do, so every rank gets the same bits and the same run
    /// with the same rank count is repeatable.
    func sumInRankOrder(_ buffer: UnsafeMutableBufferPointer<Float>) throws
    func sumInRankOrder(_ values: [Double]) throws -> [Double]
    /// `bytes` of `root` on every rank.
    func broadcast(_ bytes: [UInt8], from root: Int) throws -> [UInt8]
    /// Every rank's bytes on every rank, in rank order.
    func allGather(_ bytes: [UInt8]) throws -> [[UInt8]]
    /// Waits for every rank without spinning on a core (ranks that wait for rank 0's reports
    /// would otherwise take the cores it writes them with).
    func quietBarrier() throws
    /// Ends every process of the job with `code`, after `message` on this rank's standard error.
    func abort(_ message: String, code: Int32) -> Never
    /// Bytes this rank sent and seconds it spent in collectives, since it started.
    var traffic: CollectiveTraffic { get }
}

public struct CollectiveTraffic: Equatable, Sendable {
    public var bytesSent = 0
    public var seconds = 0.0
    public var calls = 0
    public init() {}
}

extension Communicator {
    public var isRoot: Bool { rank == 0 }
    /// "rank 1 of 2 on host-b".
    public var place: String { "rank \(rank) of \(size) on \(hosts[rank])" }
    /// Distinct hosts, in order of their first rank.
    public var distinctHosts: [String] {
        var seen = Set<String>()
        return hosts.filter { seen.insert($0).inserted }
    }

    /// True on every rank when it is true on any (a Ctrl-C seen by one rank stops them all at the same step).
    public func any(_ flag: Bool) throws -> Bool { try sumInRankOrder([flag ? 1 : 0])[0] > 0 }

    /// Root's value on every rank (decisions made on one rank's clock, such as a time budget).
    public func agree(on value: Int, from root: Int = 0) throws -> Int {
        var value = Int64(value)
        let bytes = try broadcast(withUnsafeBytes(of: &value) { Array($0) }, from: root)
        guard bytes.count == 8 else { throw DistributedError(call: "agree", reason: "rank \(root) sent \(bytes.count) bytes for one integer") }
        return Int(bytes.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
    }

    public func sumInRankOrder(_ values: [Float]) throws -> [Float] {
        var values = values
        try values.withUnsafeMutableBufferPointer { try sumInRankOrder($0) }
        return values
    }
}

/// One process: every collective is the identity. What a plain `screenlab train` runs with.
public final class SingleProcess: Communicator {
    public let hosts = [ProcessInfo.processInfo.hostName]
    public init() {}
    public var rank: Int { 0 }
    public var size: Int { 1 }
    public func sumInRankOrder(_ buffer: UnsafeMutableBufferPointer<Float>) throws {}
    public func sumInRankOrder(_ values: [Double]) throws -> [Double] { values }
    public func broadcast(_ bytes: [UInt8], from root: Int) throws -> [UInt8] { bytes }
    public func allGather(_ bytes: [UInt8]) throws -> [[UInt8]] { [bytes] }
    public func quietBarrier() throws {}
    public func abort(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(code)
    }
    public var traffic: CollectiveTraffic { CollectiveTraffic() }
}

public struct DistributedError: Error, CustomStringConvertible {
    public let call: String
    public let reason: String
    public init(call: String, reason: String) {
        self.call = call
        self.reason = reason
    }
    public var description: String { "\(call): \(reason)" }
}

/// How a buffer of `count` elements is cut into one contiguous chunk per rank for the
/// reduce-scatter: chunk r is reduced by rank r. Sizes differ by at most one element.
public struct RankChunks: Equatable {
    public let offsets: [Int]
    public let counts: [Int]

    public init(count: Int, ranks: Int) {
        precondition(count >= 0 && ranks > 0)
        let base = count / ranks, extra = count % ranks
        counts = (0..<ranks).map { base + ($0 < extra ? 1 : 0) }
        var offset = 0
        var offsets: [Int] = []
        for count in counts {
            offsets.append(offset)
            offset += count
        }
        self.offsets = offsets
    }
}

/// The reduction every rank applies to its chunk: `parts[k]` is rank k's copy; summed in rank
/// order into `result` with one running sum per element.
public func addInRankOrder(_ parts: UnsafeBufferPointer<Float>, ranks: Int, count: Int, into result: UnsafeMutablePointer<Float>) {
    guard count > 0 else { return }
    let base = parts.baseAddress!
    result.update(from: base, count: count)
    for k in 1..<max(ranks, 1) {
        let part = base + k * count
        var i = 0
        while i + 8 <= count {
            let sum = UnsafeRawPointer(result + i).loadUnaligned(as: SIMD8<Float>.self) + UnsafeRawPointer(part + i).loadUnaligned(as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(result + i).storeBytes(of: sum, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count { result[i] += part[i]; i += 1 }
    }
}
