// swift-tools-version:6.1
// ScreenLab: a training and evaluation workbench for UI-element detectors.
// Dependencies point one way: (Tensor, Kernels) → Autograd → NN → Detection → Inference →
// Training → Benchmarks → CLI, with Imaging → Data → (Augment, Evaluation), (Data, Typography) →
// Synthetic → Training, Distributed (the ranks of an mpirun job) → Training, and Weights, Registry beside them; Inference → Export (ONNX) → CLI; Registry → Server (`screenlab
// serve`) → CLI; and Accessibility (detections → grouped elements in navigation order) on Imaging
// (drawing) and Support (JSON) alone. Kernels → KernelsAVX512 (its AVX-512 kernels); Tensor,
// KernelsAVX512, Support and Plotting depend on no other target. Every declared dependency is
// imported and every import declared: Scripts/check-dependencies, run by Scripts/test. See README.md's architecture picture and
// docs/architecture.md's table.
import PackageDescription

/// Hot pointer loops: bounds are checked by the callers (the Tensor/Autograd layer), so the
/// kernels drop overflow and exclusivity checks in release builds.
let kernelSettings: [SwiftSetting] = [
    .unsafeFlags(["-Ounchecked", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// The instruction set a kernel module is built for. `Kernels`' SIMD8/SIMD16 loops: AVX2 (Haswell
/// and later, incl. Zen) makes the memory-bound depthwise and batch-norm kernels ~30% faster than
/// the x86-64 SSE2 baseline, and in debug builds (which the tests run) turns each lane's fused
/// multiply-add from a libm call into an instruction. `KernelsAVX512`: the same kernels for CPUs
/// with AVX-512, in a module of their own because Swift sets the instruction set per module;
/// `Kernels` calls them only where the CPU reports AVX-512 (`VectorISA`), so one build runs
/// everywhere. `Imaging` and `Augment` (the loader's resampling, blits and colour jitter) get AVX2
/// too: the loader made 1.24× more images a second, same bytes (floor is then one instruction, not
/// a libm call; no FMA contraction either way). Set SCREENLAB_PORTABLE=1 when building for a CPU
/// without AVX2 (older than ~2013).
func targetCPU(_ cpu: String) -> [SwiftSetting] {
    #if arch(x86_64)
    Context.environment["SCREENLAB_PORTABLE"] == "1" ? [] : [.unsafeFlags(["-target-cpu", cpu])]
    #else
    []
    #endif
}
let vectorISASettings = targetCPU("haswell")
let avx512ISASettings = targetCPU("skylake-avx512")

/// Optimized in debug builds too: the tests train, predict and compare whole detectors through these
/// loops (and start the debug `screenlab` to do it), which -Onone makes 20–50× slower; debugging
/// these modules is done in a release build with `-g`. @testable imports still work (debug builds
/// pass -enable-testing).
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "ScreenLab",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "screenlab", targets: ["ScreenLabCLI"]),
        .library(name: "ScreenLab", targets: [
            "Support", "Kernels", "Tensor", "Autograd", "NN", "Imaging", "Typography", "Plotting", "Data", "Synthetic", "Augment",
            "Detection", "Evaluation", "Weights", "Inference", "Registry", "Training", "Export", "Accessibility",
        ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // The run registry's SQLite access: WAL database pools, busy handling, migrations. On Linux
        // it links Debian's libsqlite3 (libsqlite3-dev) through its GRDBSQLite system-library target.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // ONNX export's ModelProto. The generated onnx.pb.swift is committed (Sources/Export/Generated/
        // README.md says how it was made), so builds need only the runtime library, not protoc.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `screenlab serve`: the HTTP server and router. Without its ConfigurationSupport trait (the
        // server is configured by `serve`'s flags, not swift-configuration, which would add its build).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        // For the server's in-process router tests only (an embedded channel and a logger for the
        // request context); both are already in the graph as Hummingbird's own dependencies.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        // System libraries (module maps only; each shim header fails the build with the apt command to run).
        systemLibrary("CBLAS", pkgConfig: "openblas", apt: "libopenblas-dev"),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: "libpng-dev"),
        systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev"),
        systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: "libfreetype-dev"),
        // Open MPI's header only: the library is opened at run time under mpirun (see its shim.h), so a
        // plain `screenlab` neither links nor needs libmpi.
        .systemLibrary(name: "COpenMPI", path: "Sources/COpenMPI", providers: [.apt(["openmpi-bin", "libopenmpi-dev"])]),

        // Shared utilities: input files, output folders, the YAML entry point, progress lines, seeded random numbers.
        .target(name: "Support", dependencies: [.product(name: "Yams", package: "Yams")]),

        // Engine.
        .target(name: "KernelsAVX512", swiftSettings: kernelSettings + avx512ISASettings + optimizedInDebug),
        .target(name: "Kernels", dependencies: ["CBLAS", "KernelsAVX512"], swiftSettings: kernelSettings + vectorISASettings + optimizedInDebug),
        .target(name: "Tensor", dependencies: ["Kernels"], swiftSettings: optimizedInDebug),
        .target(name: "Autograd", dependencies: ["Tensor", "Kernels"], swiftSettings: kernelSettings + optimizedInDebug),
        .target(name: "NN", dependencies: ["Autograd", "Tensor", "Kernels", "Support"], swiftSettings: optimizedInDebug),

        // Pixels and data.
        .target(name: "Imaging", dependencies: ["CPNG", "CTurboJPEG", "Tensor", "Support"],
                swiftSettings: kernelSettings + vectorISASettings + optimizedInDebug),
        // Text in real fonts for the synthetic screens: FreeType glyphs cached as coverage bitmaps.
        .target(name: "Typography", dependencies: ["CFreeType", "Imaging"], swiftSettings: optimizedInDebug),
        .target(name: "Plotting"),
        // Data-parallel training's collectives: one process, or the ranks of an `mpirun` job.
        .target(name: "Distributed", dependencies: ["COpenMPI"], swiftSettings: optimizedInDebug),
        .target(name: "Data", dependencies: ["Imaging", "Plotting", "Support"]),
        // Synthetic phone screens with exact labels (and true accessibility elements): the only user of Typography.
        .target(name: "Synthetic", dependencies: ["Data", "Typography", "Imaging", "Support"]),
        .target(name: "Augment", dependencies: ["Data", "Imaging", "Tensor", "Support"],
                swiftSettings: kernelSettings + vectorISASettings + optimizedInDebug),

        // Models, scoring, files.
        .target(name: "Detection", dependencies: ["Data", "NN", "Autograd", "Tensor", "Kernels", "Support"], swiftSettings: optimizedInDebug),
        .target(name: "Evaluation", dependencies: ["Data", "Plotting", "Support"]),
        .target(name: "Weights", dependencies: ["Tensor", "Support"], exclude: ["FORMAT.md"]),

        // Running a trained detector: loading it from its weights file, letterbox → detections in source pixels.
        .target(name: "Inference", dependencies: ["Detection", "Weights", "Evaluation", "Data", "Imaging", "NN", "Tensor", "Kernels", "Support"],
                swiftSettings: optimizedInDebug),

        // What a screen reader would present (Screen Recognition §5.1, 5.5, 5.6): detections →
        // grouped elements → navigation order by XY-cut, as JSON and a numbered picture. Pure
        // geometry over class names; Imaging only for drawing.
        .target(name: "Accessibility", dependencies: ["Imaging", "Support"]),

        // The SQLite run registry (schema in Sources/Registry/SCHEMA.md): runs, per-epoch metrics,
        // per-class results, artifacts; run comparison across registry rows, run folders and reports.
        .target(name: "Registry", dependencies: [
            "Evaluation", "Data", "Weights", "Plotting", "Support", .product(name: "GRDB", package: "GRDB.swift"),
        ], exclude: ["SCHEMA.md"]),

        // The trainer: experiment configs, the one training step, checkpoints and exact resume, reports.
        .target(name: "Training", dependencies: [
            "Inference", "Registry", "Detection", "Augment", "Synthetic", "Distributed", "Data", "Evaluation", "Weights", "Imaging", "Plotting", "NN", "Autograd", "Tensor", "Kernels", "Support",
        ]),

        // `screenlab export --format onnx`: the fused (batch-norm-folded) network as an ONNX model, decode
        // optional, with classes, thresholds, input size and normalization in its metadata.
        .target(name: "Export", dependencies: [
            "Inference", "Detection", "Weights", "Kernels", "Support",
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ], exclude: ["Generated/onnx.proto", "Generated/README.md", "Generated/generate.sh"]),

        // `screenlab serve`: the workbench in a browser — runs, a run, comparison, the screens behind a
        // confusion cell, per-class thresholds picked on live curves and saved into new weights.
        .target(name: "Server", dependencies: [
            "Registry", "Evaluation", "Weights", "Data", "Imaging", "Plotting", "Support",
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),

        // Everything `screenlab bench` measures with, kept out of the libraries it measures.
        .target(name: "Benchmarks", dependencies: ["Training", "Inference", "Detection", "Augment", "Evaluation", "Data", "NN", "Autograd", "Tensor", "Kernels", "Support"]),

        .executableTarget(name: "ScreenLabCLI", dependencies: [
            "Support", "Kernels", "Tensor", "Autograd", "NN", "Imaging", "Data", "Synthetic", "Augment",
            "Detection", "Evaluation", "Weights", "Inference", "Registry", "Training", "Distributed", "Benchmarks", "Export", "Accessibility", "Server",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "SystemLibrariesTests", dependencies: ["CBLAS", "CPNG", "CTurboJPEG", "CSQLite", "CFreeType"]),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "KernelsTests", dependencies: ["Kernels"]),
        .testTarget(name: "TensorTests", dependencies: ["Tensor", "Kernels"]),
        .testTarget(name: "AutogradTests", dependencies: ["Autograd", "Tensor", "Kernels", "Support"]),
        // The small conv net the engine's end-to-end tests train (test support, not a library).
        .target(name: "TestSupport", dependencies: ["NN", "Autograd", "Tensor", "Support"], path: "Tests/TestSupport",
                swiftSettings: optimizedInDebug),
        .testTarget(name: "NNTests", dependencies: ["NN", "TestSupport", "Autograd", "Tensor", "Kernels", "Support"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "Tensor", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TypographyTests", dependencies: ["Typography", "Imaging"]),
        .testTarget(name: "PlottingTests", dependencies: ["Plotting"]),
        .testTarget(name: "DataTests", dependencies: ["Data", "Support"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SyntheticTests", dependencies: ["Synthetic", "Data", "Typography", "Imaging", "Support"]),
        .testTarget(name: "AugmentTests", dependencies: ["Augment", "Data", "Imaging", "Support"]),
        .testTarget(name: "DetectionTests", dependencies: ["Detection", "TestSupport", "Data", "NN", "Autograd", "Tensor", "Support"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Data", "Support"], resources: [.copy("Fixtures")]),
        .testTarget(name: "WeightsTests", dependencies: ["Weights", "Tensor", "Support"], resources: [.copy("Fixtures")]),
        .testTarget(name: "InferenceTests", dependencies: ["Inference", "TestSupport", "Imaging", "Detection", "Evaluation", "Data", "Weights", "NN", "Autograd", "Tensor", "Kernels", "Support"]),
        .testTarget(name: "ExportTests", dependencies: [
            "Export", "TestSupport", "Inference", "Detection", "Weights", "NN", "Autograd", "Tensor", "Support",
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ], resources: [.copy("run_onnx.py")]),
        .testTarget(name: "RegistryTests", dependencies: ["Registry", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        // The tests that start the `screenlab` executable (exit statuses, messages, signals, several processes at once).
        .testTarget(name: "ScreenLabCLITests", dependencies: [
            "TestSupport", "Training", "Registry", "Accessibility", "Detection", "Data", "Imaging", "Support", "Tensor", "Weights",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "Augment", "TestSupport", "Registry", "Inference", "Detection", "Evaluation", "Synthetic", "Data", "Weights", "NN", "Tensor", "Kernels"]),
        .testTarget(name: "AccessibilityTests", dependencies: ["Accessibility", "TestSupport", "Detection", "Weights", "Imaging"]),
        .testTarget(name: "ServerTests", dependencies: [
            "Server", "Registry", "Training", "Evaluation", "Weights", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
        ], exclude: ["browser_check.py"]),  // run from its source path by BrowserTests
        // Starts Open MPI jobs of the real executable (`swift build --build-tests` puts it beside the tests).
        .testTarget(name: "DistributedTests", dependencies: ["Distributed", "TestSupport", "Weights"], exclude: ["two-hosts.sh"]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "Detection", "Augment", "Evaluation", "Data", "Imaging", "NN", "Autograd", "Tensor", "Kernels", "Support"]),
    ],
    swiftLanguageModes: [.v5]
)
