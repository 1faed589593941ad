import Data
import Synthetic
import Detection
import Foundation

extension ExperimentConfig {
    /// Every setting after defaults and overrides, as an experiment file that reads back to the
    /// same config (`config.resolved.yaml` in the run folder; the registry stores it too).
    /// A preset's name, else the multipliers that differ from 1 as a flow mapping.
    private func classMixYAML(_ mix: ClassMix) -> String {
        if let name = mix.presetName { return name }
        let pairs = zip(Taxonomy.screenRecognition.classes, mix.multipliers).filter { $0.1 != 1 }
        return "{" + pairs.map { "\"\($0.0)\": \($0.1 == $0.1.rounded() && abs($0.1) < 1e15 ? String(Int($0.1)) : "\($0.1)")" }.joined(separator: ", ") + "}"
    }

    public func resolvedYAML() -> String {
        func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)" }
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        var lines = ["# Resolved from \(file) (defaults and --set overrides applied)", "name: \(quoted(name))", "data:"]
        if let dataset = data.dataset { lines.append("  dataset: \(quoted(dataset))") }
        for (key, synthetic) in [("synthetic", data.synthetic), ("add_synthetic", data.addedSynthetic)] {
            guard let s = synthetic else { continue }
            lines.append("  \(key): {count: \(s.count), seed: \(s.seed), screens_per_app: \(s.screensPerApp), val_fraction: \(number(s.valFraction)), test_fraction: \(number(s.testFraction)), class_mix: \(classMixYAML(s.classMix)), text: \(s.text.rawValue)"
                         + (s.style == .mixed ? "" : ", style: \(s.style.rawValue)") + "}")
        }
        lines += ["  train: \(quoted(data.train))", "  val: \(quoted(data.val))", "  test: \(quoted(data.test))", "  evaluate_test: \(data.evaluateTest)", "  cache: \(data.cache.rawValue)",
                  "model: \(quoted(model))"]
        if inputWidth != nil || inputHeight != nil {
            lines.append("input: {" + [inputWidth.map { "width: \($0)" }, inputHeight.map { "height: \($0)" }].compactMap { $0 }.joined(separator: ", ") + "}")
        }
        lines.append("augment: \(quoted(augment))")
        if closeMosaic > 0 { lines.append("close_mosaic: \(closeMosaic)") }
        let sampler = [repeatThreshold.map { "repeat_threshold: \(number($0))" },
                       repeatScreens.isEmpty ? nil : "repeat_screens: {" + repeatScreens.map { "\(quoted($0.condition)): \(number($0.factor))" }.joined(separator: ", ") + "}"]
            .compactMap { $0 }
        if !sampler.isEmpty { lines.append("sampler: {\(sampler.joined(separator: ", "))}") }
        lines += [
            "loss:",
            "  classification: \(loss.classification.rawValue)",
            "  class_balance: " + classBalanceYAML,
            "  weights: {classification: \(number(loss.classificationWeight)), box: \(number(loss.boxWeight)), distribution: \(number(loss.distributionWeight))}",
            "  focal_alpha: \(number(loss.focalAlpha))",
            "  focal_gamma: \(number(loss.focalGamma))",
            "assigner: {static_epochs: \(assigner.staticEpochs.map(String.init) ?? "all"), min_positives: \(assigner.minimumPositives), within_reach: \(assigner.withinReach), smallest_wins: \(assigner.smallestWins)}",
            "optimizer: {name: \(optimizer.name.rawValue), lr: \(number(optimizer.learningRate)), momentum: \(number(optimizer.momentum)), weight_decay: \(number(optimizer.weightDecay)), nesterov: \(optimizer.nesterov), backbone_lr_multiplier: \(number(optimizer.backboneLearningRateMultiplier)), gradient_clip: \(number(optimizer.gradientClip))}",
            "schedule: {warmup_epochs: \(number(schedule.warmupEpochs)), final_factor: \(number(schedule.finalFactor)), warmup_start_factor: \(number(schedule.warmupStartFactor)), decay: \(schedule.cosine ? "cosine" : "linear")}",
            "epochs: \(epochs)",
        ]
        if let budgetSeconds { lines.append("budget: \(number(budgetSeconds))s") }
        lines += ["batch_size: \(batchSize)", "seed: \(seed)", "threads: \(threads)", "workers: \(workers)", "dense_kernels: \(denseKernels.rawValue)",
                  ema.enabled ? "ema: {decay: \(number(ema.decay)), ramp_updates: \(number(ema.rampUpdates))}" : "ema: false"]
        if let initWeights { lines.append("init: \(quoted(initWeights))") }
        if let distill {
            lines.append("distill: {teacher: \(quoted(distill.teacher)), classification: \(number(distill.classificationWeight)), "
                         + "localization: \(number(distill.localizationWeight)), temperature: \(number(distill.temperature))"
                         + (distill.classes.map { ", classes: [\($0.map(quoted).joined(separator: ", "))]" } ?? "") + "}")
        }
        switch freeze {
        case .none: lines.append("freeze: none")
        case .backbone: lines.append("freeze: backbone")
        case let .stages(k): lines.append("freeze: {stages: \(k)}")
        }
        lines += ["val_interval: \(validationInterval)", "thresholds: \(quoted(thresholdStrategy))",
                  "postprocess: {nms_iou: \(number(postprocess.nmsIoU)), cross_class_iou: \(number(postprocess.crossClassIoU)), max_detections: \(postprocess.maxDetections), evaluation_score_threshold: \(number(postprocess.evaluationScoreThreshold))}",
                  "preview_images: \(previewImages)"]
        return lines.joined(separator: "\n") + "\n"
    }

    private var classBalanceYAML: String {
        switch loss.classBalance {
        case .none: return "none"
        case let .effectiveNumber(beta): return "{method: effective_number, beta: \(beta)}"
        case let .inverseFrequency(power): return "{method: inverse_frequency, power: \(power)}"
        }
    }
}

extension DetectionLossSettings {
    /// The loss settings an experiment's `loss:` section describes.
    public init(_ section: ExperimentConfig.LossSection, assigner: ExperimentConfig.AssignerSection? = nil) {
        self.init()
        minimumPositives = assigner?.minimumPositives ?? 0
        withinReach = assigner?.withinReach ?? false
        smallestWins = assigner?.smallestWins ?? false
        classification = section.classification
        classificationWeight = Float(section.classificationWeight)
        boxWeight = Float(section.boxWeight)
        distributionWeight = Float(section.distributionWeight)
        focalAlpha = Float(section.focalAlpha)
        focalGamma = Float(section.focalGamma)
    }

    /// The loss settings of an experiment, its `distill:` weights included.
    public init(_ config: ExperimentConfig) {
        self.init(config.loss, assigner: config.assigner)
        if let distill = config.distill {
            distillation.classification = Float(distill.classificationWeight)
            distillation.localization = Float(distill.localizationWeight)
            distillation.temperature = Float(distill.temperature)
        }
    }
}
