// Times WeightsFile.read on one file in an optimized build: `sh bench.sh FILE.slw`.
import Foundation
import Weights

@main
struct Bench {
    static func main() throws {
        let url = URL(fileURLWithPath: CommandLine.arguments[1])
        var times: [Double] = []
        for _ in 0..<20 {
            let start = DispatchTime.now().uptimeNanoseconds
            let weights = try WeightsFile.read(contentsOf: url)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            precondition(weights.elementCount > 0)
        }
        times.sort()
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        print("\(url.lastPathComponent): \(size) bytes, load over 20 runs: best \(times[0]) ms, median \(times[10]) ms, worst \(times[19]) ms")
    }
}
