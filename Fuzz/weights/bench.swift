// Times WeightsFile.read on one file in an optimized build: `sh bench.sh FILE.slw`.
// Prints wall time and this thread's CPU time: on a shared machine the wall time includes
// waiting for a core, the CPU time is what the load itself costs.
import Foundation
import Weights

@main
struct Bench {
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    static func main() throws {
        let url = URL(fileURLWithPath: CommandLine.arguments[1])
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<20 {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = threadCPUMilliseconds()
            let weights = try WeightsFile.read(contentsOf: url)
            cpu.append(threadCPUMilliseconds() - cpuStart)
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            precondition(weights.elementCount > 0)
        }
        wall.sort()
        cpu.sort()
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        print("\(url.lastPathComponent): \(size) bytes, 20 loads: wall best \(ms(wall[0])), median \(ms(wall[10])); "
              + "thread CPU best \(ms(cpu[0])), median \(ms(cpu[10]))")
    }
}
