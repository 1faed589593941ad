import ArgumentParser
import Distributed
import Foundation

/// `mpirun -np N screenlab bench allreduce`: the gradient sum of data-parallel training alone.
struct BenchAllreduceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allreduce", abstract: "Time the rank-order gradient sum of data-parallel training (run under mpirun).",
        discussion: """
        Every rank sums a buffer of --floats floats (default: the default detector's gradients and batch-norm \
        statistics, 1,045,118 floats, 4.18 MB) --runs times, each run started together (a one-number sum first), and \
        rank 0 prints the median and quartiles of the time, the bytes each rank sent (2·(N−1)/N of the buffer, a ring's \
        amount) and the rate they went at. With one process (no mpirun) it says so and exits.
        """)

    @Option(help: "Floats in the buffer.") var floats = 1_045_118
    @Option(help: "Timed sums.") var runs = 50

    func validate() throws {
        guard (1...500_000_000).contains(floats) else { throw usageError("--floats must be 1…500000000, got \(floats)") }
        try OptionBounds.check("runs", runs, OptionBounds.runs)
    }

    func run() throws {
        guard MPICommunicator.isLaunchedByMPIRun else {
            throw failure("bench allreduce measures several processes: run it as `mpirun -np 2 screenlab bench allreduce`")
        }
        let communicator: MPICommunicator
        do { communicator = try MPICommunicator() } catch { throw failure("\(error)") }
        defer { communicator.finish() }
        do {
            var buffer = (0..<floats).map { Float(($0 * 7 + communicator.rank) % 13) * 0.25 }
            var seconds: [Double] = []
            for run in 0..<(runs + 3) {
                _ = try communicator.sumInRankOrder([0])  // start together: the time is the sum's, not a late rank's
                let start = DispatchTime.now().uptimeNanoseconds
                try buffer.withUnsafeMutableBufferPointer { try communicator.sumInRankOrder($0) }
                if run >= 3 { seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
            }
            guard communicator.isRoot else { return }
            seconds.sort()
            let n = communicator.size
            let sent = 2.0 * Double(n - 1) / Double(n) * Double(floats * 4)
            let median = seconds[seconds.count / 2]
            print(String(format: "bench allreduce: %d ranks on %@, %.2f MB buffer, %d runs: median %.2f ms (quartiles %.2f–%.2f), %.2f MB sent a rank, %.2f GB/s",
                         n, communicator.distinctHosts.joined(separator: ", "), Double(floats * 4) / 1e6, runs, median * 1e3,
                         seconds[seconds.count / 4] * 1e3, seconds[3 * seconds.count / 4] * 1e3, sent / 1e6, sent / median / 1e9))
            print("library: \(communicator.libraryVersion)")
        } catch {
            communicator.abort("error: \(error)", code: 1)
        }
    }
}
