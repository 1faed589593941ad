import Data
import Synthetic
import Augment
import Detection
import Evaluation
import Foundation
import Support

extension ExperimentConfig {
    /// Reads an experiment file with `--set` overrides applied on top. Every unknown key, wrong
    /// type and out-of-range value is an error naming the file and line (or `--set`) and the
    /// dotted key, with the closest known key suggested for a typo.
    public static func load(contentsOf url: URL, overrides: [String] = []) throws -> ExperimentConfig {
        let text: String
        do { text = try ReadableFile.text(of: url, maximumBytes: YAMLLimits().maximumBytes) } catch let error as FileReadError {
            throw ExperimentConfigError(file: url.relativePath, line: nil, key: nil, message: error.reason + " (experiments are Experiments/*.yaml files)")
        }
        return try parse(yaml: text, file: url.relativePath, overrides: overrides)
    }

    /// `defaultName` names the run when the file has no `name:` key (default: the file's stem).
    public static func parse(yaml: String, file: String, overrides: [String] = [], defaultName: String? = nil) throws -> ExperimentConfig {
        // Support's YAML entry point (depth, alias and size limits before Yams walks anything),
        // with the `--set` values merged in: errors about them name `--set`, not a line.
        let top = try ConfigMapping(YAMLOverrides.apply(overrides, to: YAMLDocument.parse(yaml, file: file), file: file))
        let stem = defaultName ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var config = ExperimentConfig(name: try top.string("name", default: stem), file: file)
        guard config.name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._-]*$"#, options: .regularExpression) != nil else {
            throw top.error("name", "'\(config.name)' must be letters, digits, '.', '_' or '-' (it names the run folder)")
        }
        config.data = try readData(top.mapping("data"), hasData: top.has("data"), error: top.error("data", "missing: give data.dataset (a dataset config) or data.synthetic"))
        config.model = try top.string("model", default: config.model)
        _ = top.value("input")
        if top.has("input") {
            let input = try top.mapping("input")
            config.inputWidth = try input.optionalInt("width", range: 32...4096)
            config.inputHeight = try input.optionalInt("height", range: 32...4096)
            for (key, value) in [("width", config.inputWidth), ("height", config.inputHeight)] where value.map({ $0 % 32 != 0 }) ?? false {
                throw input.error(key, "\(value!) is not a multiple of 32 (the detector's coarsest stride)")
            }
            try input.finish()
        }
        config.augment = try top.string("augment", default: config.augment)
        config.closeMosaic = try top.int("close_mosaic", default: 0, range: 0...100_000)
        _ = top.value("sampler")
        if top.has("sampler") {
            let sampler = try top.mapping("sampler")
            config.repeatThreshold = try sampler.optionalDouble("repeat_threshold", range: 0...1)
            if sampler.has("repeat_screens") { config.repeatScreens = try readRepeatScreens(sampler.mapping("repeat_screens")) }
            try sampler.finish()
        }
        config.loss = try readLoss(top.mapping("loss"))
        let assigner = try top.mapping("assigner")
        if try assigner.optionalString("static_epochs") == "all" {
            config.assigner.staticEpochs = nil
        } else {
            config.assigner.staticEpochs = try assigner.optionalInt("static_epochs", range: 0...100_000)
        }
        config.assigner.minimumPositives = try assigner.int("min_positives", default: 0, range: 0...64)
        config.assigner.withinReach = try assigner.bool("within_reach", default: false)
        config.assigner.smallestWins = try assigner.bool("smallest_wins", default: false)
        try assigner.finish()
        config.optimizer = try readOptimizer(top.mapping("optimizer"))
        config.schedule = try readSchedule(top.mapping("schedule"))
        config.epochs = try top.int("epochs", default: config.epochs, range: 1...100_000)
        if let budget = try top.optionalString("budget") {
            guard let seconds = parseDuration(budget) else { throw top.error("budget", "'\(budget)' is not a duration of up to a year; write e.g. 60m, 90s, 1.5h (or null: no budget, the file's epochs)") }
            config.budgetSeconds = seconds
            // `--set epochs=N` asks for N epochs — the short version of any experiment is `--set
            // epochs=1` — so a budget from the file, which would refit the count after epoch 1,
            // gives way; with `--set budget=…` too, the budget fits the epochs as usual.
            let overridden = top.options.overriddenKeys
            if overridden.contains("epochs") && !overridden.contains("budget") {
                config.budgetSeconds = nil
                config.budgetSetAside = seconds
            }
        }
        if config.closeMosaic > 0 {
            // Counted from the end, so the epoch count must be known before the first epoch.
            guard config.budgetSeconds == nil else { throw top.error("close_mosaic", "needs a fixed epoch count; a budget fits the epochs after the first, so drop budget or close_mosaic") }
        }
        config.batchSize = try top.int("batch_size", default: config.batchSize, range: 2...1024)
        config.seed = UInt64(try top.int("seed", default: 0, range: 0...Int.max))
        config.threads = try top.int("threads", default: config.threads, range: 1...256)
        config.workers = try top.int("workers", default: config.workers, range: 0...64)
        // `dense_forward` is the key's name from before the packed choice took the input gradients too.
        if top.has("dense_forward") && top.has("dense_kernels") {
            throw top.error("dense_forward", "is dense_kernels' earlier name; keep only dense_kernels")
        }
        let kernelsKey = top.has("dense_forward") ? "dense_forward" : "dense_kernels"
        config.denseKernels = ExperimentConfig.DenseKernels(
            rawValue: try top.choice(kernelsKey, default: config.denseKernels.rawValue, ExperimentConfig.DenseKernels.allCases.map(\.rawValue)))!
        config.ema = try readEMA(top, key: "ema")
        config.initWeights = try top.optionalString("init")
        if top.has("distill") { config.distill = try readDistillation(top.mapping("distill")) } else { _ = top.value("distill") }
        config.freeze = try readFreeze(top)
        config.validationInterval = try top.int("val_interval", default: config.validationInterval, range: 1...100_000)
        config.thresholdStrategy = try top.string("thresholds", default: config.thresholdStrategy)
        // Checked now, not in the final reports: `thresholds: precision:nan` trained every epoch, then failed.
        do { _ = try ThresholdStrategy(parsing: config.thresholdStrategy) } catch { throw top.error("thresholds", "\(error)") }
        config.postprocess = try readPostprocess(top.mapping("postprocess"))
        config.previewImages = try top.int("preview_images", default: config.previewImages, range: 0...64)
        try top.finish()
        return config
    }

    private static func readDistillation(_ d: ConfigMapping) throws -> Distillation {
        guard let teacher = try d.optionalString("teacher"), !teacher.isEmpty else {
            throw d.error("teacher", "missing: give the teacher's weights, a .slw path or run:NAME (e.g. teacher: run:family-fpn96)")
        }
        var distill = Distillation(teacher: teacher)
        distill.classificationWeight = try d.double("classification", default: distill.classificationWeight, range: 0...100)
        distill.localizationWeight = try d.double("localization", default: distill.localizationWeight, range: 0...100)
        distill.temperature = try d.double("temperature", default: distill.temperature, range: 0.1...100)
        distill.classes = try d.names("classes", unique: true)
        if distill.classes?.isEmpty == true { throw d.error("classes", "empty: name the classes the teacher teaches, or leave the key out for all") }
        try d.finish()
        return distill
    }

    private static func readSynthetic(_ s: ConfigMapping) throws -> SyntheticData {
        var synthetic = SyntheticData()
        synthetic.count = try s.int("count", default: synthetic.count, range: 10...1_000_000)
        synthetic.seed = UInt64(try s.int("seed", default: 1, range: 0...Int.max))
        synthetic.screensPerApp = try s.int("screens_per_app", default: synthetic.screensPerApp, range: 1...10_000)
        synthetic.valFraction = try s.double("val_fraction", default: synthetic.valFraction, range: 0.01...0.5)
        synthetic.testFraction = try s.double("test_fraction", default: synthetic.testFraction, range: 0.01...0.5)
        synthetic.classMix = try readClassMix(s)
        synthetic.text = SyntheticText(rawValue: try s.choice("text", default: synthetic.text.rawValue, SyntheticText.allCases.map(\.rawValue)))!
        synthetic.style = SyntheticStyle(rawValue: try s.choice("style", default: synthetic.style.rawValue, SyntheticStyle.allCases.map(\.rawValue)))!
        if synthetic.style == .ios && synthetic.text != .freetype { throw s.error("text", "style: ios needs text: freetype (its Korean, Chinese and Japanese apps)") }
        try s.finish()
        return synthetic
    }

    private static func readData(_ m: ConfigMapping, hasData: Bool, error: ExperimentConfigError) throws -> DataSection {
        guard hasData else { throw error }
        var data = DataSection()
        data.dataset = try m.optionalString("dataset")
        if m.has("synthetic") {
            data.synthetic = try readSynthetic(try m.mapping("synthetic"))
        } else {
            _ = m.value("synthetic")
        }
        if m.has("add_synthetic") {
            data.addedSynthetic = try readSynthetic(try m.mapping("add_synthetic"))
            guard data.dataset != nil else {
                throw m.error("add_synthetic", "adds synthetic training screens to data.dataset's: give data.dataset too")
            }
        } else {
            _ = m.value("add_synthetic")
        }
        guard (data.dataset == nil) != (data.synthetic == nil) else {
            throw m.error(data.dataset == nil ? "dataset" : "synthetic", "give exactly one of data.dataset and data.synthetic")
        }
        data.train = try m.string("train", default: data.train)
        data.val = try m.string("val", default: data.val)
        data.test = try m.string("test", default: data.test)
        data.evaluateTest = try m.bool("evaluate_test", default: true)
        data.cache = ScreenCache(rawValue: try m.choice("cache", default: data.cache.rawValue, ScreenCache.allCases.map(\.rawValue)))!
        try m.finish()
        return data
    }

    /// `repeat_screens: {source=vins_iphone: 2}`: manifest column=value → factor.
    private static func readRepeatScreens(_ m: ConfigMapping) throws -> [ScreenRepeatRule] {
        var rules: [ScreenRepeatRule] = []
        for key in m.keys {
            guard let (column, value) = ScreenRepeatRule.condition(key) else {
                throw m.error(key, "'\(key)' is not COLUMN=VALUE (a manifest.tsv column and one of its values, e.g. source=vins_iphone)")
            }
            rules.append(ScreenRepeatRule(key: column, value: value, factor: try m.double(key, default: 1, range: ScreenRepeatRule.factorRange)))
        }
        try m.finish()
        return rules
    }

    /// `class_mix: rare-controls` (a preset) or `class_mix: {Slider: 4, Dialog: 3}` (multipliers;
    /// class names in any case and punctuation, unnamed classes keep 1).
    private static func readClassMix(_ s: ConfigMapping) throws -> ClassMix {
        guard let node = s.value("class_mix") else { return .standard }
        if node.scalar != nil {
            return ClassMix.preset(named: try s.choice("class_mix", default: "default", ClassMix.presets.map(\.name)))!
        }
        let m = try s.mapping("class_mix")
        let classes = Taxonomy.screenRecognition.classes
        var byName: [String: Double] = [:], seen: [Int: String] = [:]
        for key in m.keys {
            guard let index = ClassMix.classIndex(named: key) else {
                let hint = KeySuggestion.closest(to: key, among: classes).map { " — did you mean '\($0)'?" } ?? ""
                throw m.error(key, "'\(key)' is not a class\(hint) (classes: \(classes.joined(separator: ", ")))")
            }
            if let first = seen[index] { throw m.error(key, "names the same class as '\(first)'; keep one") }
            seen[index] = key
            byName[key] = try m.double(key, default: 1, range: 0...ClassMix.maximum)
        }
        try m.finish()
        return try ClassMix(byName)
    }

    private static func readLoss(_ m: ConfigMapping) throws -> LossSection {
        var loss = LossSection()
        loss.classification = DetectionLossSettings.Classification(rawValue: try m.choice("classification", default: loss.classification.rawValue,
                                                                                          DetectionLossSettings.Classification.allCases.map(\.rawValue)))!
        var method = "none", beta: Double?, power: Double?
        if m.has("class_balance"), m.value("class_balance")?.scalar != nil {
            method = try m.choice("class_balance", default: "none", ClassBalance.configNames)
        } else {
            let balance = try m.mapping("class_balance")
            method = try balance.choice("method", default: "none", ClassBalance.configNames)
            beta = try balance.optionalDouble("beta", range: 0...0.999999)
            power = try balance.optionalDouble("power", range: 0...4)
            try balance.finish()
        }
        do { loss.classBalance = try ClassBalance(configName: method, beta: beta, power: power) } catch {
            throw m.error("class_balance", "\(error)")
        }
        let weights = try m.mapping("weights")
        loss.classificationWeight = try weights.double("classification", default: loss.classificationWeight, range: 0...1000)
        loss.boxWeight = try weights.double("box", default: loss.boxWeight, range: 0...1000)
        loss.distributionWeight = try weights.double("distribution", default: loss.distributionWeight, range: 0...1000)
        try weights.finish()
        loss.focalAlpha = try m.double("focal_alpha", default: loss.focalAlpha, range: -1...1)
        loss.focalGamma = try m.double("focal_gamma", default: loss.focalGamma, range: 0...10)
        try m.finish()
        return loss
    }

    private static func readOptimizer(_ m: ConfigMapping) throws -> OptimizerSection {
        var o = OptimizerSection()
        o.name = OptimizerName(rawValue: try m.choice("name", default: o.name.rawValue, OptimizerName.allCases.map(\.rawValue)))!
        if o.name == .sgd { o.learningRate = 0.02; o.weightDecay = 0.0005 }
        o.learningRate = try m.double("lr", default: o.learningRate, range: 0...10)
        o.momentum = try m.double("momentum", default: o.momentum, range: 0...0.9999)
        o.weightDecay = try m.double("weight_decay", default: o.weightDecay, range: 0...1)
        o.nesterov = try m.bool("nesterov", default: o.nesterov)
        o.backboneLearningRateMultiplier = try m.double("backbone_lr_multiplier", default: o.backboneLearningRateMultiplier, range: 0...100)
        o.gradientClip = try m.double("gradient_clip", default: o.gradientClip, range: 0...1e6)
        try m.finish()
        return o
    }

    private static func readSchedule(_ m: ConfigMapping) throws -> ScheduleSection {
        var s = ScheduleSection()
        s.warmupEpochs = try m.double("warmup_epochs", default: s.warmupEpochs, range: 0...10_000)
        s.finalFactor = try m.double("final_factor", default: s.finalFactor, range: 0...1)
        s.warmupStartFactor = try m.double("warmup_start_factor", default: s.warmupStartFactor, range: 0...1)
        s.cosine = try m.choice("decay", default: "cosine", ["cosine", "linear"]) == "cosine"
        try m.finish()
        return s
    }

    private static func readEMA(_ top: ConfigMapping, key: String) throws -> EMASection {
        var ema = EMASection()
        if let node = top.value(key), node.scalar != nil {
            guard let flag = try? node.bool() else { throw top.error(key, "expected true, false or {decay: D}") }
            ema.enabled = flag
            return ema
        }
        let m = try top.mapping(key)
        ema.decay = try m.double("decay", default: ema.decay, range: 0...1)
        ema.rampUpdates = try m.double("ramp_updates", default: ema.rampUpdates, range: 1...1e9)
        try m.finish()
        return ema
    }

    private static func readFreeze(_ top: ConfigMapping) throws -> Freeze {
        guard let node = top.value("freeze") else { return .none }
        if let text = node.scalar {
            switch text {
            case "backbone": return .backbone
            case "none", "false": return .none
            default: throw top.error("freeze", "'\(text)' is not backbone, none or {stages: K}")
            }
        }
        let m = try top.mapping("freeze")
        let stages = try m.int("stages", default: 1, range: 0...4)
        try m.finish()
        return .stages(stages)
    }

    private static func readPostprocess(_ m: ConfigMapping) throws -> PostprocessSection {
        var p = PostprocessSection()
        p.nmsIoU = try m.double("nms_iou", default: p.nmsIoU, range: 0.01...1)
        p.crossClassIoU = try m.double("cross_class_iou", default: p.crossClassIoU, range: 0.01...1)
        p.maxDetections = try m.int("max_detections", default: p.maxDetections, range: 1...10_000)
        p.evaluationScoreThreshold = try m.double("evaluation_score_threshold", default: p.evaluationScoreThreshold, range: 0...1)
        try m.finish()
        return p
    }

    /// `60m`, `90s`, `1.5h`, `45` (seconds).
    /// Seconds for "90s", "60m", "1.5h" or "45"; nil unless positive and at most `maximumDuration`
    /// (a budget of 1e308 h passes `isFinite` but traps where the trainer turns it into epochs).
    static func parseDuration(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("h", 3600), ("m", 60), ("s", 1)]
        var seconds = Double(trimmed)
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            seconds = Double(trimmed.dropLast()).map { $0 * factor }
            break
        }
        guard let seconds, seconds.isFinite, seconds > 0, seconds <= maximumDuration else { return nil }
        return seconds
    }

    /// A year: longer than any run, small enough for every later conversion.
    static let maximumDuration: Double = 365 * 24 * 3600
}
