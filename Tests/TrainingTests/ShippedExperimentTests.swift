import XCTest
import Augment
@testable import Training

/// Every experiment file the repository ships must be one `screenlab train` accepts: a typo in
/// an ablation arm would otherwise surface only when a study spread over sessions reaches it.
/// Checks what can be checked without the data: the experiment's keys, its model file and its
/// augmentation preset (with the preset's own strict reader), and that a dataset config it
/// names is in the repository.
final class ShippedExperimentTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testEveryShippedExperimentParsesWithItsModelAndPreset() throws {
        let folder = root.appendingPathComponent("Experiments")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 15, "the study's experiment files are in Experiments/: \(files)")
        for file in files {
            let url = folder.appendingPathComponent(file)
            let config = try ExperimentConfig.load(contentsOf: url)
            XCTAssertEqual(config.name, String(file.dropLast(5)))
            XCTAssertNoThrow(try DetectorModelFile.load(contentsOf: root.appendingPathComponent(config.model)), file)
            XCTAssertNoThrow(try AugmentPreset.load(from: AugmentPreset.locate(config.augment, from: root)), file)
            if let dataset = config.data.dataset, dataset.hasSuffix(".yaml") {
                XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent(dataset).path), "\(file): \(dataset)")
            }
        }
    }

    /// A second seed (`NAME-seedN.yaml`) must be its arm with only the seed changed, or the
    /// spread between the two would not be seed noise.
    func testEverySecondSeedDiffersFromItsArmOnlyInTheSeed() throws {
        let folder = root.appendingPathComponent("Experiments")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.range(of: #"-seed\d+\.yaml$"#, options: .regularExpression) != nil }
        XCTAssertGreaterThanOrEqual(seeds.count, 4, "\(seeds)")
        func settings(_ file: String) throws -> [String] {
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("#") && !$0.hasPrefix("seed:") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        for file in seeds {
            let arm = file.replacingOccurrences(of: #"-seed\d+\.yaml$"#, with: ".yaml", options: .regularExpression)
            XCTAssertEqual(try settings(file), try settings(arm), "\(file) against \(arm)")
            let seed = try ExperimentConfig.load(contentsOf: folder.appendingPathComponent(file)).seed
            XCTAssertNotEqual(seed, try ExperimentConfig.load(contentsOf: folder.appendingPathComponent(arm)).seed, file)
        }
    }

    /// The augmentation ablation is a cumulative chain: each arm adds exactly one thing to the one before.
    func testTheAugmentationAblationArmsAddOneThingEach() throws {
        func arm(_ name: String) throws -> (preset: AugmentPreset, repeatThreshold: Double) {
            let config = try ExperimentConfig.load(contentsOf: root.appendingPathComponent("Experiments/\(name).yaml"))
            let preset = try AugmentPreset.load(from: AugmentPreset.locate(config.augment, from: root))
            return (preset, config.repeatThreshold ?? preset.sampling.repeatThreshold)
        }
        let none = try arm("aug-none"), mosaic = try arm("aug-mosaic"), mixup = try arm("aug-mosaic-mixup")
        let paste = try arm("aug-mosaic-mixup-copypaste"), sampling = try arm("aug-mosaic-mixup-copypaste-sampling")
        let chain = [none, mosaic, mixup, paste, sampling]
        XCTAssertEqual(chain.map { $0.preset.mosaic.probability > 0 }, [false, true, true, true, true])
        XCTAssertEqual(chain.map { $0.preset.mixUp.probability > 0 }, [false, false, true, true, true])
        XCTAssertEqual(chain.map { $0.preset.copyPaste.probability > 0 }, [false, false, false, true, true])
        XCTAssertEqual(chain.map { $0.repeatThreshold > 0 }, [false, false, false, false, true])
        for step in chain {
            XCTAssertEqual(step.preset.scaleTranslate.probability, 0, "the chain leaves out what only the default preset adds")
            XCTAssertEqual(step.preset.hsv.probability, 0)
        }
    }

    /// aug-none-28 is vins-baseline (the default preset over 28 epochs fitted to 60 minutes) with
    /// the augmentation off and the 28 epochs fixed: nothing else may differ, or the pair would
    /// not answer whether plain screens still win at the longer budget. (`data.cache` may differ:
    /// keeping the screens decoded changes no bits, `TrainerTests.testCachedScreensTrainTheSameBits`.)
    func testTheLongerPlainArmIsTheBaselineWithoutAugmentation() throws {
        let folder = root.appendingPathComponent("Experiments")
        func settings(_ file: String) throws -> [String] {
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").map { String($0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: .whitespaces) }
                .filter { line in !line.isEmpty && !["augment:", "epochs:", "budget:", "cache:"].contains { line.hasPrefix($0) } }
        }
        XCTAssertEqual(try settings("aug-none-28.yaml"), try settings("vins-baseline.yaml"))
        let plain = try ExperimentConfig.load(contentsOf: folder.appendingPathComponent("aug-none-28.yaml"))
        XCTAssertEqual(plain.augment, "none")
        XCTAssertEqual(plain.epochs, 28, "vins-baseline's 60-minute budget came to 28 epochs (Reports/vins-baseline)")
    }
}
