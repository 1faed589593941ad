import XCTest
@testable import Kernels

final class BLASKernelSelectionTests: XCTestCase {
    let avx512: Set<String> = ["sse2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"]
    let avx2: Set<String> = ["sse2", "avx", "avx2", "fma"]

    func testFallbackCoresAreUpgradedToWhatTheCPURuns() {
        XCTAssertEqual(BLASKernelSelection.betterCore(cpuFlags: avx512, chosen: "Prescott"), "SkylakeX")
        XCTAssertEqual(BLASKernelSelection.betterCore(cpuFlags: avx2, chosen: "Prescott"), "Haswell")
        XCTAssertEqual(BLASKernelSelection.betterCore(cpuFlags: avx2, chosen: "Sandybridge"), "Haswell")
        // AVX-512 needs all five subsets the SkylakeX kernels use; without them, AVX2.
        XCTAssertEqual(BLASKernelSelection.betterCore(cpuFlags: avx2.union(["avx512f"]), chosen: "Nehalem"), "Haswell")
    }

    func testAModernChoiceOrAnOldCPUIsLeftAlone() {
        for core in ["Haswell", "Zen", "SkylakeX", "Cooperlake", "SAPPHIRERAPIDS"] {
            XCTAssertNil(BLASKernelSelection.betterCore(cpuFlags: avx512, chosen: core), core)
        }
        XCTAssertNil(BLASKernelSelection.betterCore(cpuFlags: ["sse2", "sse3", "avx"], chosen: "Sandybridge"))
        XCTAssertNil(BLASKernelSelection.betterCore(cpuFlags: ["avx2"], chosen: "Prescott"), "AVX2 without FMA is not Haswell")
    }

    /// On the machine running the tests: once the engine has configured BLAS, a CPU with AVX2+FMA
    /// runs AVX2-or-better kernels (unless the user forced a core).
    func testThisMachineRunsKernelsThatMatchItsCPU() throws {
        Parallel.threadCount = Parallel.threadCount  // configures BLAS
        if ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"] != nil {
            throw XCTSkip("OPENBLAS_CORETYPE is set: the user's choice is kept")
        }
        guard let flags = BLASKernelSelection.cpuFlags(), flags.isSuperset(of: ["avx2", "fma"]) else {
            throw XCTSkip("no /proc/cpuinfo, or a CPU without AVX2+FMA")
        }
        XCTAssertTrue(BLASKernelSelection.modernCores.contains(BLASKernelSelection.coreName.lowercased()),
                      "\(BLASKernelSelection.note)")
    }
}
