import Foundation

/// The vector instruction set of the inference kernels that have two versions (the packed
/// micro-kernel and the stride-1 depthwise kernel).
///
/// Swift sets the target CPU per module, not per function, so the AVX-512 versions live in their
/// own module (`KernelsAVX512`, built for Skylake-AVX512) and are called only where the CPU and
/// the OS report AVX-512; everything else in `Kernels` is built for Haswell (AVX2 + FMA). Both
/// versions of a kernel do each output's arithmetic in the same order with the same operations,
/// so the choice changes speed, never results.
public enum VectorISA: String, CaseIterable, Sendable {
    /// 8-lane kernels (the whole `Kernels` module).
    case avx2
    /// `KernelsAVX512`'s 16-lane kernels.
    case avx512

    /// The /proc/cpuinfo flags of Skylake-AVX512's instruction set, which `KernelsAVX512` is built
    /// for (and OpenBLAS's SkylakeX kernels need).
    static let avx512Flags = ["avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512cd"]

    /// What this CPU can run, narrowest first.
    public static let supported: [VectorISA] = {
        #if arch(x86_64)
        let flags = BLASKernelSelection.cpuFlags() ?? []
        return avx512Flags.allSatisfy(flags.contains) ? [.avx2, .avx512] : [.avx2]
        #else
        return [.avx2]  // the portable SIMD8 path under its x86 name
        #endif
    }()

    /// In use: the widest supported, unless `SCREENLAB_VECTOR_ISA` names another (the way to time
    /// both on one machine from the command line); see `choice(asked:supported:)`.
    public private(set) nonisolated(unsafe) static var current: VectorISA = {
        let (isa, warning) = choice(asked: ProcessInfo.processInfo.environment["SCREENLAB_VECTOR_ISA"], supported: supported)
        if let warning { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
        return isa
    }()

    /// The instruction set for a `SCREENLAB_VECTOR_ISA` value: the widest supported when unset;
    /// an unknown name, or one this CPU cannot run, is refused with a warning and the widest
    /// kept, so no setting can stop a run with an illegal instruction.
    static func choice(asked: String?, supported: [VectorISA]) -> (VectorISA, warning: String?) {
        let widest = supported.last!
        guard let asked else { return (widest, nil) }
        if let isa = VectorISA(rawValue: asked.lowercased()), supported.contains(isa) { return (isa, nil) }
        return (widest, "SCREENLAB_VECTOR_ISA=\(asked): this CPU runs " + supported.map(\.rawValue).joined(separator: " or ")
            + "; using \(widest.rawValue)")
    }

    /// Switches the kernels (benchmarks and tests time and compare both in one process). Returns
    /// false, changing nothing, for an instruction set this CPU does not support.
    @discardableResult
    public static func use(_ isa: VectorISA) -> Bool {
        guard supported.contains(isa) else { return false }
        current = isa
        return true
    }
}
