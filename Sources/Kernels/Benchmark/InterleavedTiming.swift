import Dispatch
import Foundation

/// Median wall times of several ways to do the same work, measured in alternating blocks.
public enum InterleavedTiming {
    /// One contender: `prepare` runs untimed before each of its blocks (thread settings),
    /// `run` is timed, and `settleSeconds` of idle follow its block — OpenBLAS's threads spin
    /// for a while after a multi-threaded call and would steal the cores from whatever runs next.
    public struct Contender {
        public var prepare: () -> Void
        public var run: () throws -> Void
        public var settleSeconds: Double

        public init(prepare: @escaping () -> Void = {}, settleSeconds: Double = 0, run: @escaping () throws -> Void) {
            self.prepare = prepare
            self.run = run
            self.settleSeconds = settleSeconds
        }
    }

    /// Median milliseconds of each contender over about `repetitions` timed runs, taken in
    /// `rounds` blocks per contender (each after one untimed warm-up run) so slow drifts in
    /// machine load hit all of them alike.
    public static func medianMilliseconds(_ contenders: [Contender], repetitions: Int, rounds: Int = 3) throws -> [Double] {
        let rounds = max(1, rounds), perBlock = max(1, (repetitions + rounds - 1) / rounds)
        var times = [[Double]](repeating: [], count: contenders.count)
        for _ in 0..<rounds {
            for (index, contender) in contenders.enumerated() {
                contender.prepare()
                try contender.run()
                for _ in 0..<perBlock {
                    let start = DispatchTime.now().uptimeNanoseconds
                    try contender.run()
                    times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                if contender.settleSeconds > 0 { usleep(UInt32(contender.settleSeconds * 1e6)) }
            }
        }
        return times.map { $0.sorted()[$0.count / 2] }
    }
}
