// swift-tools-version:6.1
// libFuzzer harnesses for the resume state (`checkpoints/last/state.json`) and the run registry,
// on ScreenLab's own modules (this package depends on the repository's). Built and run by fuzz.sh.
import PackageDescription

// No `main`: libFuzzer's driver calls LLVMFuzzerTestOneInput.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"]), .swiftLanguageMode(.v5)]

let package = Package(
    name: "ScreenLabFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ScreenLab", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "StateFuzzSupport"),
        .executableTarget(name: "ResumeStateFuzz", dependencies: ["StateFuzzSupport", .product(name: "ScreenLab", package: "ScreenLab")],
                          swiftSettings: harness),
        .executableTarget(name: "RegistryFuzz", dependencies: [
            "StateFuzzSupport", .product(name: "ScreenLab", package: "ScreenLab"), .product(name: "GRDB", package: "GRDB.swift"),
        ], swiftSettings: harness),
    ]
)
