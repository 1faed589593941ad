import CBLAS
import Foundation

/// Makes sure OpenBLAS runs kernels that match the CPU.
///
/// OpenBLAS's runtime dispatch recognises CPUs by model number. On a CPU released after the
/// installed library (seen here: Emerald Rapids, model 207, under Debian 12's OpenBLAS 0.3.21)
/// it falls back to "Prescott" SSE3 kernels: sgemm ran at 20 GFLOP/s instead of 100 on one core,
/// and the detector's training step was 2× slower than with the right kernels. When the chosen
/// core predates AVX2 while the CPU (as the kernel reports it) has AVX2+FMA or AVX-512, this
/// re-runs the choice with `OPENBLAS_CORETYPE` set to the matching core. A user's own
/// `OPENBLAS_CORETYPE` is always left alone.
public enum BLASKernelSelection {
    /// What happened at start-up, for benchmark headers and `--verbose` output.
    public private(set) static var note: String = "not configured yet"

    /// OpenBLAS's name for the kernels in use (e.g. "SkylakeX", "Haswell", "Prescott").
    public static var coreName: String { String(cString: openblas_get_corename()) }

    /// Cores whose sgemm uses AVX2 or better; anything else on an AVX2 CPU is a fallback.
    static let modernCores: Set<String> = ["haswell", "zen", "skylakex", "cooperlake", "sapphirerapids"]

    /// The core to ask for, given the CPU's flags (from /proc/cpuinfo) and the core OpenBLAS
    /// chose, or nil to keep the choice.
    static func betterCore(cpuFlags: Set<String>, chosen: String) -> String? {
        guard !modernCores.contains(chosen.lowercased()) else { return nil }
        if VectorISA.avx512Flags.allSatisfy(cpuFlags.contains) { return "SkylakeX" }
        if ["avx2", "fma"].allSatisfy(cpuFlags.contains) { return "Haswell" }
        return nil
    }

    /// Runs once, before the first BLAS call (from `Parallel.configureBLAS`).
    static func configure() {
        if let forced = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"] {
            note = "OpenBLAS core \(coreName) (OPENBLAS_CORETYPE=\(forced))"
            return
        }
        let chosen = coreName
        guard let flags = cpuFlags(), let better = betterCore(cpuFlags: flags, chosen: chosen),
              screenlab_openblas_can_reselect_kernels() != 0 else {
            note = "OpenBLAS core \(chosen)"
            return
        }
        setenv("OPENBLAS_CORETYPE", better, 1)
        screenlab_openblas_reselect_kernels()
        unsetenv("OPENBLAS_CORETYPE")  // child processes (the PyTorch peer) see the environment they were given
        note = "OpenBLAS core \(coreName) (OpenBLAS chose \(chosen) for this unknown CPU model; its flags support \(better))"
    }

    /// The flags of the first processor in /proc/cpuinfo (Linux), which the kernel lists only
    /// when the OS has enabled them (AVX-512 state included); nil elsewhere.
    static func cpuFlags() -> Set<String>? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
              let colon = line.firstIndex(of: ":") else { return nil }
        return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
    }
}
