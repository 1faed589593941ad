import XCTest
import Data
import Synthetic
import Augment
import Detection
@testable import Training

final class ExperimentConfigTests: XCTestCase {
    let minimal = """
    data:
      synthetic: {count: 40, seed: 3}
    epochs: 2
    """

    func testDefaultsAndOverrides() throws {
        let config = try ExperimentConfig.parse(yaml: minimal, file: "Experiments/small.yaml",
                                                overrides: ["optimizer.lr=0.01", "ema=false", "freeze={stages: 2}", "budget=90s"])
        XCTAssertEqual(config.name, "small")
        XCTAssertEqual(config.epochs, 2)
        XCTAssertEqual(config.data.synthetic?.count, 40)
        XCTAssertEqual(config.optimizer.learningRate, 0.01)
        XCTAssertFalse(config.ema.enabled)
        XCTAssertEqual(config.freeze, .stages(2))
        XCTAssertEqual(config.budgetSeconds, 90)
    }

    /// `--set epochs=N` on an experiment with a budget trains N epochs (the short version of any
    /// experiment): the file's budget is set aside, and kept when `--set budget=…` is given too.
    func testEpochsFromSetSetTheFilesBudgetAside() throws {
        let budgeted = minimal + "\nbudget: 60m\n"
        let plain = try ExperimentConfig.parse(yaml: budgeted, file: "e.yaml")
        XCTAssertEqual(plain.budgetSeconds, 3600)
        XCTAssertNil(plain.budgetSetAside)
        let short = try ExperimentConfig.parse(yaml: budgeted, file: "e.yaml", overrides: ["epochs=1"])
        XCTAssertEqual(short.epochs, 1)
        XCTAssertNil(short.budgetSeconds)
        XCTAssertEqual(short.budgetSetAside, 3600)
        XCTAssertNil(try ExperimentConfig.parse(yaml: short.resolvedYAML(), file: "e.yaml").budgetSeconds, "the resolved file has no budget")
        let both = try ExperimentConfig.parse(yaml: budgeted, file: "e.yaml", overrides: ["epochs=1", "budget=2m"])
        XCTAssertEqual(both.budgetSeconds, 120)
        XCTAssertNil(both.budgetSetAside)
        XCTAssertNil(try ExperimentConfig.parse(yaml: budgeted, file: "e.yaml", overrides: ["budget=null"]).budgetSeconds, "null removes it")
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: budgeted, file: "e.yaml", overrides: ["budget=none"])) { error in
            XCTAssertTrue("\(error)".contains("(or null: no budget, the file's epochs)"), "\(error)")
        }
        // close_mosaic needs a fixed count: with the budget set aside it is allowed.
        XCTAssertEqual(try ExperimentConfig.parse(yaml: budgeted, file: "e.yaml", overrides: ["epochs=3", "close_mosaic=1"]).closeMosaic, 1)
    }

    /// The ATSS departures: off by default, set by keys or --set, kept through the resolved YAML
    /// a run stores (which --resume reads), reaching the loss settings, and range-checked.
    func testAssignerRulesParseRoundTripAndReachTheLoss() throws {
        let plain = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml")
        XCTAssertEqual(plain.assigner.minimumPositives, 0)
        XCTAssertFalse(plain.assigner.withinReach)
        let ruled = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["assigner.min_positives=3", "assigner.within_reach=true", "assigner.smallest_wins=true"])
        XCTAssertEqual(ruled.assigner.minimumPositives, 3)
        XCTAssertTrue(ruled.assigner.withinReach)
        XCTAssertTrue(ruled.assigner.smallestWins)
        XCTAssertFalse(plain.assigner.smallestWins)
        XCTAssertEqual(try ExperimentConfig.parse(yaml: ruled.resolvedYAML(), file: "e.yaml").assigner, ruled.assigner)
        let settings = DetectionLossSettings(ruled.loss, assigner: ruled.assigner)
        XCTAssertEqual(settings.minimumPositives, 3)
        XCTAssertTrue(settings.withinReach)
        XCTAssertTrue(settings.smallestWins)
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["assigner.min_positives=-1"])) { error in
            XCTAssertTrue("\(error)".contains("(assigner.min_positives)"), "\(error)")
        }
    }

    func testCloseMosaicParsesRoundTripsAndRefusesABudget() throws {
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").closeMosaic, 0)
        let closing = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["close_mosaic=1"])
        XCTAssertEqual(closing.closeMosaic, 1)
        XCTAssertEqual(try ExperimentConfig.parse(yaml: closing.resolvedYAML(), file: "e.yaml").closeMosaic, 1)
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["close_mosaic=1", "budget=60m"])) { error in
            XCTAssertTrue("\(error)".contains("(close_mosaic): needs a fixed epoch count"), "\(error)")
        }
    }

    /// `sampler.repeat_screens`: COLUMN=VALUE keys with factors in 1…16, kept through the resolved
    /// YAML (what --resume reads) beside the repeat threshold; evaluation's default scores
    /// class-wise NMS alone.
    func testRepeatScreensParseRoundTripAndRefuseWhatIsNotACondition() throws {
        let yaml = minimal + "\nsampler: {repeat_threshold: 0.1, repeat_screens: {source=vins_iphone: 2, kind=dark: 1.5}}\n"
        let config = try ExperimentConfig.parse(yaml: yaml, file: "e.yaml")
        XCTAssertEqual(config.repeatScreens, [ScreenRepeatRule(key: "source", value: "vins_iphone", factor: 2), ScreenRepeatRule(key: "kind", value: "dark", factor: 1.5)])
        let reread = try ExperimentConfig.parse(yaml: config.resolvedYAML(), file: "e.yaml")
        XCTAssertEqual(reread.repeatScreens, config.repeatScreens)
        XCTAssertEqual(reread.repeatThreshold, 0.1)
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").repeatScreens, [])
        XCTAssertEqual(config.postprocess.crossClassIoU, 1, "AP without Screen Recognition's cross-class removal")
        for (bad, says) in [("{vins_iphone: 2}", "is not COLUMN=VALUE"), ("{source=: 2}", "is not COLUMN=VALUE"),
                            ("{source=vins_iphone: 0.5}", "sampler.repeat_screens.source=vins_iphone"), ("{source=vins_iphone: 17}", "source=vins_iphone")] {
            XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal + "\nsampler: {repeat_screens: \(bad)}\n", file: "e.yaml"), bad) { error in
                XCTAssertTrue("\(error)".contains(says), "\(bad): \(error)")
            }
        }
    }

    /// `dense_kernels` picks the training convolutions' kernel; it is written into the resolved
    /// config (a resumed run keeps its rounding) and a misspelt value names the key and the choices.
    /// Its earlier name `dense_forward` (in the resolved configs of older runs) still reads, but
    /// not beside the new one.
    func testDenseKernelsParsesRoundTripsAndNamesTheChoices() throws {
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").denseKernels, .winograd)
        let sgemm = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["dense_kernels=openblas"])
        XCTAssertEqual(sgemm.denseKernels, .openblas)
        XCTAssertTrue(sgemm.resolvedYAML().contains("dense_kernels: openblas"))
        XCTAssertEqual(try ExperimentConfig.parse(yaml: sgemm.resolvedYAML(), file: "e.yaml").denseKernels, .openblas)
        // A run of the previous default resumes on its own kernels.
        let packed = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["dense_kernels=packed"])
        XCTAssertEqual(try ExperimentConfig.parse(yaml: packed.resolvedYAML(), file: "e.yaml").denseKernels, .packed)
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal + "\ndense_kernels: fast\n", file: "e.yaml")) { error in
            XCTAssertTrue("\(error)".contains("dense_kernels") && "\(error)".contains("openblas") && "\(error)".contains("packed")
                          && "\(error)".contains("winograd"), "\(error)")
        }
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal + "\ndense_forward: packed\n", file: "e.yaml").denseKernels, .packed)
        let weights = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["dense_kernels=winograd-weights"])
        XCTAssertEqual(weights.denseKernels, .winogradWeights)
        XCTAssertEqual(try ExperimentConfig.parse(yaml: weights.resolvedYAML(), file: "e.yaml").denseKernels, .winogradWeights)
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal + "\ndense_forward: openblas\n", file: "e.yaml").denseKernels, .openblas)
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal + "\ndense_forward: packed\ndense_kernels: packed\n", file: "e.yaml")) { error in
            XCTAssertTrue("\(error)".contains("dense_forward") && "\(error)".contains("keep only dense_kernels"), "\(error)")
        }
    }

    /// `data.cache` keeps the training screens decoded in memory or not; it is written into the
    /// resolved config and a misspelt value names the key and the choices.
    func testDataCacheParsesRoundTripsAndNamesTheChoices() throws {
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").data.cache, ExperimentConfig.ScreenCache.none)
        let ram = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["data.cache=ram"])
        XCTAssertEqual(ram.data.cache, .ram)
        XCTAssertTrue(ram.resolvedYAML().contains("  cache: ram"))
        XCTAssertEqual(try ExperimentConfig.parse(yaml: ram.resolvedYAML(), file: "e.yaml").data.cache, .ram)
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["data.cache=disk"])) { error in
            XCTAssertTrue("\(error)".contains("cache") && "\(error)".contains("none") && "\(error)".contains("ram"), "\(error)")
        }
    }

    /// The threshold strategy is checked with the rest of the config, before any training.
    func testAThresholdStrategyThatCannotBeUsedIsRefusedAtOnce() {
        for bad in ["precision:nan", "garbage", "recall:2"] {
            XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["thresholds=\(bad)"]), bad) { error in
                XCTAssertTrue("\(error)".contains("(thresholds): unknown threshold strategy"), "\(error)")
            }
        }
        XCTAssertNoThrow(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["thresholds=precision:0.9"]))
    }

    /// `data.add_synthetic`: synthetic training screens beside a dataset's; kept through the
    /// resolved YAML; meaningless (and refused, naming the key) without `data.dataset`.
    func testAddedSyntheticScreensParseRoundTripAndNeedADataset() throws {
        let yaml = """
        data:
          dataset: Configs/datasets/vins-ui.yaml
          add_synthetic: {count: 300, seed: 9, class_mix: rare-controls}
        epochs: 2
        """
        let config = try ExperimentConfig.parse(yaml: yaml, file: "e.yaml")
        XCTAssertEqual(config.data.dataset, "Configs/datasets/vins-ui.yaml")
        XCTAssertNil(config.data.synthetic)
        XCTAssertEqual(config.data.addedSynthetic?.count, 300)
        XCTAssertEqual(config.data.addedSynthetic?.seed, 9)
        XCTAssertEqual(try ExperimentConfig.parse(yaml: config.resolvedYAML(), file: "e.yaml").data, config.data)
        XCTAssertNil(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").data.addedSynthetic)
        let alone = minimal.replacingOccurrences(of: "  synthetic: {count: 40, seed: 3}", with: "  synthetic: {count: 40, seed: 3}\n  add_synthetic: {count: 40}")
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: alone, file: "e.yaml")) { error in
            XCTAssertTrue("\(error)".contains("add_synthetic") && "\(error)".contains("give data.dataset too"), "\(error)")
        }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: yaml.replacingOccurrences(of: "count: 300", with: "count: 3"), file: "e.yaml")) { error in
            XCTAssertTrue("\(error)".contains("count"), "\(error)")
        }
    }

    func testUnknownKeySuggestsTheClosestAndNamesTheLine() {
        let yaml = minimal + "\noptimizer:\n  learning_rate: 0.1\n  lr_: 3\n"
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: yaml, file: "e.yaml")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("e.yaml:5 (optimizer.learning_rate): unknown key"), text)
        }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal + "\nepohcs: 3\n", file: "e.yaml")) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'epochs'?"), "\(error)")
        }
    }

    func testSetOverrideErrorsNameTheFlag() {
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["optimzer.lr=1"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("--set (optimzer): unknown key — did you mean 'optimizer'?"), "\(error)")
        }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["epochs=many"])) { error in
            XCTAssertEqual("\(error)", "--set (epochs): expected an integer, found 'many'")
        }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["epochs"])) { error in
            XCTAssertTrue("\(error)".contains("is not key=value"), "\(error)")
        }
    }

    func testWrongTypesRangesChoicesAndDuplicates() {
        let cases: [(String, String)] = [
            ("batch_size: 1", "batch_size): 1 is out of range; allowed 2…1024"),
            ("loss: {classification: quality_focla}", "'quality_focla' is not one of quality_focal, varifocal, focal — did you mean 'quality_focal'?"),
            ("budget: soon", "'soon' is not a duration"),
            ("epochs: 3", "e.yaml:4 (epochs): appears twice (first on line 3); keep one"),
            ("freeze: head", "'head' is not backbone, none or {stages: K}"),
        ]
        for (line, expected) in cases {
            XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal + "\n" + line + "\n", file: "e.yaml"), line) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(line): \(error)")
            }
        }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: "epochs: 2\n", file: "e.yaml")) { error in
            XCTAssertTrue("\(error)".contains("give data.dataset"), "\(error)")
        }
    }

    func testClassMixPresetsMappingsErrorsAndRoundTrip() throws {
        func parse(_ mix: String) throws -> ExperimentConfig {
            try ExperimentConfig.parse(yaml: minimal.replacingOccurrences(of: "seed: 3}", with: "seed: 3, class_mix: \(mix)}"), file: "e.yaml")
        }
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").data.synthetic?.classMix, .standard)
        let preset = try parse("rare-controls")
        XCTAssertEqual(preset.data.synthetic?.classMix, ClassMix.preset(named: "rare-controls"))
        let mapped = try parse("{Slider: 4, page_control: 2.5}")
        XCTAssertEqual(mapped.data.synthetic?.classMix, try ClassMix(["Slider": 4, "Page Control": 2.5]))
        let bitmap = try ExperimentConfig.parse(yaml: minimal.replacingOccurrences(of: "seed: 3}", with: "seed: 3, text: bitmap}"), file: "e.yaml")
        XCTAssertEqual(bitmap.data.synthetic?.text, .bitmap)
        XCTAssertEqual(preset.data.synthetic?.text, .freetype)
        for config in [preset, mapped, try parse("default"), bitmap] {
            XCTAssertTrue(config.resolvedYAML().contains("class_mix: "), config.resolvedYAML())
            XCTAssertEqual(try ExperimentConfig.parse(yaml: config.resolvedYAML(), file: "e.yaml").data.synthetic, config.data.synthetic)
        }
        let cases: [(String, String)] = [
            ("{Slidr: 4}", "e.yaml:2 (data.synthetic.class_mix.Slidr): 'Slidr' is not a class — did you mean 'Slider'?"),
            ("{Dialog: -1}", "e.yaml:2 (data.synthetic.class_mix.Dialog): -1.0 is out of range; allowed 0.0…1000.0"),
            ("{Dialog: lots}", "(data.synthetic.class_mix.Dialog): expected a number"),
            ("{Slider: 2, slider: 3}", "names the same class as 'Slider'"),
            ("rare", "(data.synthetic.class_mix): 'rare' is not one of default, rare-controls"),
        ]
        for (mix, expected) in cases {
            XCTAssertThrowsError(try parse(mix), mix) { error in XCTAssertTrue("\(error)".contains(expected), "\(mix): \(error)") }
        }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["data.synthetic.class_mix.Toggle=3"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("--set (data.synthetic.class_mix.Toggle): 'Toggle' is not a class"), "\(error)")
        }
    }

    func testSyntheticStyleParsesRoundTripsAndNeedsFreeType() throws {
        func parse(_ extra: String) throws -> ExperimentConfig {
            try ExperimentConfig.parse(yaml: minimal.replacingOccurrences(of: "seed: 3}", with: "seed: 3, \(extra)}"), file: "e.yaml")
        }
        XCTAssertEqual(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").data.synthetic?.style, .mixed)
        let ios = try parse("style: ios")
        XCTAssertEqual(ios.data.synthetic?.style, .ios)
        XCTAssertTrue(ios.resolvedYAML().contains("style: ios}"), ios.resolvedYAML())
        XCTAssertEqual(try ExperimentConfig.parse(yaml: ios.resolvedYAML(), file: "e.yaml").data.synthetic, ios.data.synthetic)
        // The default is not written, so resolved configs of earlier runs read the same.
        XCTAssertFalse(try parse("style: mixed").resolvedYAML().contains("style:"))
        XCTAssertThrowsError(try parse("style: android")) { error in
            XCTAssertTrue("\(error)".contains("(data.synthetic.style): 'android' is not one of mixed, ios"), "\(error)")
        }
        XCTAssertThrowsError(try parse("style: ios, text: bitmap")) { error in
            XCTAssertTrue("\(error)".contains("(data.synthetic.text): style: ios needs text: freetype"), "\(error)")
        }
    }

    func testDistillationDefaultsRoundTripAndErrors() throws {
        XCTAssertNil(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml").distill)
        let config = try ExperimentConfig.parse(yaml: minimal + "\ndistill: {teacher: run:family-fpn96}\n", file: "e.yaml")
        let distill = try XCTUnwrap(config.distill)
        XCTAssertEqual(distill.teacher, "run:family-fpn96")
        XCTAssertEqual([distill.classificationWeight, distill.localizationWeight, distill.temperature], [1, 0.25, 10])
        let tuned = try ExperimentConfig.parse(yaml: minimal, file: "e.yaml",
                                               overrides: ["distill.teacher=t.slw", "distill.localization=0.5", "distill.temperature=4"])
        XCTAssertEqual(tuned.distill?.localizationWeight, 0.5)
        XCTAssertNil(tuned.distill?.classes)
        let taught = try ExperimentConfig.parse(
            yaml: minimal + "\ndistill: {teacher: t.slw, classes: [Text, \"Page Control\"]}\n", file: "e.yaml")
        XCTAssertEqual(taught.distill?.classes, ["Text", "Page Control"])
        for c in [config, tuned, taught] {
            XCTAssertEqual(try ExperimentConfig.parse(yaml: c.resolvedYAML(), file: "e.yaml").distill, c.distill, c.resolvedYAML())
        }
        let cases: [(String, String)] = [
            ("distill: {classification: 2}", "(distill.teacher): missing: give the teacher's weights"),
            ("distill: {teacher: t.slw, temperature: 0}", "(distill.temperature): 0.0 is out of range"),
            ("distill: {teacher: t.slw, temprature: 2}", "temprature"),
            ("distill: {teacher: t.slw, classes: []}", "(distill.classes): empty: name the classes"),
            ("distill: {teacher: t.slw, classes: [Text, Text]}", "'Text' is listed twice"),
            ("distill: {teacher: t.slw, classes: Text}", "expected a list of names"),
        ]
        for (yaml, expected) in cases {
            XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal + "\n" + yaml + "\n", file: "e.yaml"), yaml) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(yaml): \(error)")
            }
        }
    }

    func testDurations() {
        XCTAssertEqual(ExperimentConfig.parseDuration("60m"), 3600)
        XCTAssertEqual(ExperimentConfig.parseDuration("1.5h"), 5400)
        XCTAssertEqual(ExperimentConfig.parseDuration("45"), 45)
        XCTAssertNil(ExperimentConfig.parseDuration("-3m"))
        XCTAssertNil(ExperimentConfig.parseDuration("m"))
        // Past a year is refused at parse time (1e308h trapped after a whole epoch, converting the budget to epochs).
        XCTAssertEqual(ExperimentConfig.parseDuration("8760h"), 365 * 24 * 3600)
        for hostile in ["8761h", "1e308h", "1e20s", "inf", "nan"] { XCTAssertNil(ExperimentConfig.parseDuration(hostile), hostile) }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal, file: "e.yaml", overrides: ["budget=1e308h"])) { error in
            XCTAssertTrue("\(error)".contains("(budget): '1e308h' is not a duration of up to a year"), "\(error)")
        }
    }

    func testHostileYAMLIsRefusedBeforeParsing() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: "data: " + deep, file: "deep.yaml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("deep.yaml"), "\(error)")
        }
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { laughs += "l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: laughs, file: "laughs.yaml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("laughs.yaml"), "\(error)")
        }
        // Yams' Node.int traps on this YAML 1.1 base-60 overflow (found by yaml-fuzz).
        XCTAssertThrowsError(try ExperimentConfig.parse(yaml: minimal.replacingOccurrences(of: "epochs: 2", with: "epochs: 1:0:0:0:0:0:0:0:0:0:0:0"), file: "e.yaml")) { error in
            XCTAssertEqual("\(error)", "e.yaml:3 (epochs): expected an integer, found '1:0:0:0:0:0:0:0:0:0:0:0'")
        }
        XCTAssertThrowsError(try ExperimentConfig.load(contentsOf: URL(fileURLWithPath: "/dev/zero"))) { error in
            XCTAssertTrue("\(error)".contains("/dev/zero"), "\(error)")
        }
    }
}
