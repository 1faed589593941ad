import COpenMPI
import Foundation

/// A rank of a job started by Open MPI's `mpirun`: MPI_COMM_WORLD, with the library opened at
/// run time (`COpenMPI`), so nothing here is needed by a plain `screenlab`.
///
/// Sums are a reduce-scatter then an allgather (Alltoallv + Allgatherv): rank r adds the N
/// copies of its chunk in rank order, so the result does not depend on which reduction
/// algorithm Open MPI picks for the message size, and every rank holds the same bits. It sends
/// what a ring allreduce sends, 2·(N−1)/N of the buffer per rank.
public final class MPICommunicator: Communicator {
    /// Set by Open MPI's launcher in every process it starts.
    public static var isLaunchedByMPIRun: Bool { ProcessInfo.processInfo.environment["OMPI_COMM_WORLD_SIZE"] != nil }

    /// The library `dlopen` looks for: Debian's libmpi.so.40 (Open MPI 4 and 5), or
    /// SCREENLAB_MPI_LIBRARY.
    public static var libraryName: String { ProcessInfo.processInfo.environment["SCREENLAB_MPI_LIBRARY"] ?? "libmpi.so.40" }

    public let rank: Int
    public let size: Int
    public private(set) var hosts: [String] = []
    /// Open MPI's version line (MPI_Get_library_version).
    public let libraryVersion: String
    public private(set) var traffic = CollectiveTraffic()
    private var mpi = screenlab_mpi()
    private var finalized = false

    /// Opens the library and MPI_COMM_WORLD (MPI_Init_thread, serialized: the trainer calls MPI
    /// from one thread at a time, not always the main one).
    public init() throws {
        let library = Self.libraryName
        if let failure = screenlab_mpi_load(library, &mpi) {
            throw DistributedError(call: "dlopen(\(library))", reason: String(cString: failure)
                + " — mpirun started this process, but Open MPI's library could not be used: install it with "
                + "'sudo apt-get install -y openmpi-bin libopenmpi-dev' on every host (or set SCREENLAB_MPI_LIBRARY)")
        }
        var provided: Int32 = 0
        let required = screenlab_mpi_thread_serialized()
        guard mpi.init_thread(nil, nil, required, &provided) == 0 else { throw DistributedError(call: "MPI_Init_thread", reason: "failed") }
        guard provided >= required else { throw DistributedError(call: "MPI_Init_thread", reason: "the library gives thread level \(provided), ScreenLab needs \(required) (serialized)") }
        // Errors come back as codes (and become Swift errors naming the call) instead of aborting inside the library.
        _ = mpi.comm_set_errhandler(mpi.comm_world, mpi.errors_return)
        var value: Int32 = 0
        _ = mpi.comm_rank(mpi.comm_world, &value)
        rank = Int(value)
        _ = mpi.comm_size(mpi.comm_world, &value)
        size = Int(value)
        var version = [CChar](repeating: 0, count: Int(screenlab_mpi_max_library_version_string()) + 1)
        var length: Int32 = 0
        _ = mpi.get_library_version(&version, &length)
        libraryVersion = String(cString: version).split(separator: "\n").first.map(String.init) ?? ""
        var name = [CChar](repeating: 0, count: Int(screenlab_mpi_max_processor_name()) + 1)
        try check(mpi.get_processor_name(&name, &length), "MPI_Get_processor_name")
        hosts = try allGather(Array(String(cString: name).utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// MPI_Finalize; every rank calls it once, after its last collective.
    public func finish() {
        guard !finalized else { return }
        finalized = true
        _ = mpi.finalize()
    }

    private func check(_ code: Int32, _ call: String) throws {
        guard code != 0 else { return }
        var text = [CChar](repeating: 0, count: Int(screenlab_mpi_max_error_string()) + 1)
        var length: Int32 = 0
        _ = mpi.error_string(code, &text, &length)
        throw DistributedError(call: call, reason: "\(String(cString: text)) (\(place))")
    }

    private func counted<T>(bytes: Int, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            traffic.seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            traffic.bytesSent += bytes
            traffic.calls += 1
        }
        return try body()
    }

    private func int32(_ count: Int, _ call: String) throws -> Int32 {
        guard let value = Int32(exactly: count) else { throw DistributedError(call: call, reason: "\(count) elements is more than one MPI call carries (2³¹ − 1)") }
        return value
    }

    public func sumInRankOrder(_ buffer: UnsafeMutableBufferPointer<Float>) throws {
        guard size > 1, let base = buffer.baseAddress else { return }
        let chunks = RankChunks(count: buffer.count, ranks: size)
        let mine = chunks.counts[rank]
        let others = buffer.count - mine
        try counted(bytes: 2 * others * MemoryLayout<Float>.size) {
            let sendCounts = try chunks.counts.map { try int32($0, "MPI_Alltoallv") }
            let sendOffsets = try chunks.offsets.map { try int32($0, "MPI_Alltoallv") }
            let receiveCounts = [Int32](repeating: try int32(mine, "MPI_Alltoallv"), count: size)
            let receiveOffsets = try (0..<size).map { try int32($0 * mine, "MPI_Alltoallv") }
            var parts = [Float](repeating: 0, count: max(1, size * mine))
            try parts.withUnsafeMutableBufferPointer { received in
                try check(mpi.alltoallv(base, sendCounts, sendOffsets, mpi.type_float,
                                        received.baseAddress, receiveCounts, receiveOffsets, mpi.type_float, mpi.comm_world), "MPI_Alltoallv")
                addInRankOrder(UnsafeBufferPointer(received), ranks: size, count: mine, into: base + chunks.offsets[rank])
            }
            try check(mpi.allgatherv(screenlab_mpi_in_place(), 0, mpi.type_float, base, sendCounts, sendOffsets, mpi.type_float, mpi.comm_world),
                      "MPI_Allgatherv")
        }
    }

    public func sumInRankOrder(_ values: [Double]) throws -> [Double] {
        guard size > 1 else { return values }
        let count = values.count
        var all = [Double](repeating: 0, count: count * size)
        try counted(bytes: (size - 1) * count * 8) {
            try values.withUnsafeBufferPointer { mineBuffer in
                try all.withUnsafeMutableBufferPointer { allBuffer in
                    try check(mpi.allgather(mineBuffer.baseAddress, try int32(count, "MPI_Allgather"), mpi.type_double,
                                            allBuffer.baseAddress, Int32(count), mpi.type_double, mpi.comm_world), "MPI_Allgather")
                }
            }
        }
        var sum = Array(all[0..<count])
        for k in 1..<size { for i in 0..<count { sum[i] += all[k * count + i] } }
        return sum
    }

    public func broadcast(_ bytes: [UInt8], from root: Int) throws -> [UInt8] {
        guard size > 1 else { return bytes }
        var length = Int64(rank == root ? bytes.count : 0)
        var result = bytes
        try counted(bytes: rank == root ? (size - 1) * (bytes.count + 8) : 0) {
            try check(mpi.bcast(&length, 1, mpi.type_long_long, Int32(root), mpi.comm_world), "MPI_Bcast")
            if rank != root { result = [UInt8](repeating: 0, count: Int(length)) }
            let count = try int32(Int(length), "MPI_Bcast")
            try result.withUnsafeMutableBytes { try check(mpi.bcast($0.baseAddress, count, mpi.type_byte, Int32(root), mpi.comm_world), "MPI_Bcast") }
        }
        return result
    }

    public func allGather(_ bytes: [UInt8]) throws -> [[UInt8]] {
        guard size > 1 else { return [bytes] }
        var length = Int64(bytes.count)
        var lengths = [Int64](repeating: 0, count: size)
        var joined: [UInt8] = []
        var offsets: [Int32] = []
        try counted(bytes: (size - 1) * (bytes.count + 8)) {
            try check(mpi.allgather(&length, 1, mpi.type_long_long, &lengths, 1, mpi.type_long_long, mpi.comm_world), "MPI_Allgather")
            let counts = try lengths.map { try int32(Int($0), "MPI_Allgatherv") }
            var offset = 0
            offsets = try counts.map { count in defer { offset += Int(count) }; return try int32(offset, "MPI_Allgatherv") }
            joined = [UInt8](repeating: 0, count: max(1, offset))
            try bytes.withUnsafeBytes { mine in
                try joined.withUnsafeMutableBytes { all in
                    try check(mpi.allgatherv(mine.baseAddress, try int32(bytes.count, "MPI_Allgatherv"), mpi.type_byte,
                                             all.baseAddress, counts, offsets, mpi.type_byte, mpi.comm_world), "MPI_Allgatherv")
                }
            }
        }
        return (0..<size).map { Array(joined[Int(offsets[$0])..<Int(offsets[$0]) + Int(lengths[$0])]) }
    }

    public func quietBarrier() throws {
        guard size > 1 else { return }
        var request: MPI_Request?
        try check(mpi.ibarrier(mpi.comm_world, &request), "MPI_Ibarrier")
        var done: Int32 = 0
        while done == 0 {
            try check(mpi.test(&request, &done, nil), "MPI_Test")
            if done == 0 { usleep(5_000) }
        }
    }

    public func abort(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("\(message) (\(place); ending every rank of the job)\n".utf8))
        _ = mpi.abort(mpi.comm_world, code)
        exit(code)
    }
}
