// swift-tools-version:6.1
// ScreenLab's libFuzzer harnesses, one executable target per reader family, on the repository's
// own modules (this package depends on it by path, so no script restates the module graph).
// Built and run by fuzz.sh (`swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing`).
import PackageDescription

// No `main`: libFuzzer's driver calls LLVMFuzzerTestOneInput. Swift 5 mode: the harnesses keep
// their fixtures in globals, read by one thread.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"]), .swiftLanguageMode(.v5)]
let screenLab = Target.Dependency.product(name: "ScreenLab", package: "ScreenLab")

/// A harness: `FOLDER/FuzzTarget.swift`, beside its seeds and RESULTS.md.
func fuzzer(_ name: String, folder: String, _ extra: [Target.Dependency] = [], alsoExcluding more: [String] = []) -> Target {
    .executableTarget(name: name, dependencies: [screenLab] + extra, path: folder, exclude: ["RESULTS.md"] + more,
                      sources: ["FuzzTarget.swift"], swiftSettings: harness)
}

let package = Package(
    name: "ScreenLabFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ScreenLab", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "FuzzSupport", path: "common"),
        fuzzer("YAMLFuzz", folder: "yaml", alsoExcluding: ["seeds", "seeds.txt"]),
        fuzzer("COCOFuzz", folder: "coco", alsoExcluding: ["seeds", "seeds.txt"]),
        fuzzer("YOLOFuzz", folder: "yolo", alsoExcluding: ["seeds", "seeds-image"]),
        fuzzer("ImageHeaderFuzz", folder: "image-header", alsoExcluding: ["seeds.txt"]),
        fuzzer("WeightsFuzz", folder: "weights", alsoExcluding: ["seeds.txt", "bench.sh", "bench.swift"]),
        fuzzer("ResumeStateFuzz", folder: "resume-state", ["FuzzSupport"], alsoExcluding: ["seeds", "reports"]),
        fuzzer("RegistryFuzz", folder: "registry", ["FuzzSupport", .product(name: "GRDB", package: "GRDB.swift")], alsoExcluding: ["seeds"]),
        // The weights reader's load time (not a fuzzer: built without the sanitizer by weights/bench.sh).
        .executableTarget(name: "WeightsLoadBench", dependencies: [screenLab], path: "weights",
                          exclude: ["FuzzTarget.swift", "RESULTS.md", "bench.sh", "seeds.txt"], sources: ["bench.swift"]),
    ]
)
