import Augment
import Autograd
import Data
import Detection
import Distributed
import Evaluation
import Foundation
import Imaging
import Inference
import Kernels
import NN
import Support
import Tensor
import Weights

/// Everything a run is made of, built from its config: data, model (with transfer and
/// freezing), loss, loader, optimizer, EMA, and the validation predictor.
final class TrainingSetup {
    let config: ExperimentConfig
    let data: ExperimentData
    let modelFile: DetectorModelFile
    let model: UIDetector
    /// `distill`: the teacher, in eval mode; its outputs on each batch join the loss.
    let teacher: UIDetector?
    let loss: DetectionLoss
    let decoder: HeadDecoder
    let source: TolerantSource
    let loader: DataLoader
    let optimizer: Optimizer
    let ema: ExponentialMovingAverage?
    let normalization: PixelNormalization
    /// Per class, the classification-loss weight and the training boxes it came from.
    let classWeights: [Float]
    let trainBoxCounts: [Int]
    let transferReport: TransferReport?
    let log: (String) -> Void
    /// The ranks of an `mpirun` job; nil in one process.
    let parallel: DataParallel?
    /// Helpers that stay awake between the step's parallel loops (`WorkerTeam`) instead of
    /// parking in Dispatch after each: a step runs ~230 loops, many under 100 µs at the deep
    /// layers, and the caller runs any chunk a helper has not claimed (the loader's thread may
    /// hold that core). The real step 1.03× (`Reports/benchmarks.md`, "A worker team for the
    /// training step"); same partitions, so the same bits. Nil on one thread.
    let workers: WorkerTeam?
    /// Tests turn the team off for their scope to compare bits.
    @TaskLocal static var keepsWorkersAwake = true

    var classes: [String] { data.dataset.classes }

    /// `data.cache: ram`: the training screens decoded once, on the run's threads, before the
    /// loader starts; refused with a message (the run reads from disk) when they would not fit.
    static func cachingDecoded(_ screens: DatasetSource, threads: Int, showProgress: Bool = true, log: (String) -> Void,
                               available: Int? = DecodedScreenCache.availableMemory()) -> DatasetSource {
        let (source, report, refused) = screens.keepingDecodedScreens(role: "training", workers: threads, showProgress: showProgress,
                                                                      available: available)
        log(report + (refused ? "; they are read from disk as they are drawn" : ""))
        return source
    }

    init(config: ExperimentConfig, repositoryRoot root: URL, cacheFolder: URL, communicator: Communicator? = nil,
         showProgress: Bool = true, log: @escaping (String) -> Void) throws {
        self.config = config
        self.log = log
        data = try ExperimentData.load(config.data, repositoryRoot: root, cacheFolder: cacheFolder, log: log)
        let modelURL = config.model.hasPrefix("/") ? URL(fileURLWithPath: config.model) : root.appendingPathComponent(config.model)
        modelFile = try DetectorModelFile.load(contentsOf: modelURL)
        let detector = try modelFile.configuration(classes: data.dataset.classes, inputWidth: config.inputWidth, inputHeight: config.inputHeight)
        let model = try UIDetector(configuration: detector, seed: config.seed)
        self.model = model
        normalization = PixelNormalization(mean: modelFile.normalization.mean, std: modelFile.normalization.std)

        transferReport = try config.initWeights.map { try Self.transfer(into: model, from: $0, root: root, log: log) }
        if let distill = config.distill {
            teacher = try Self.teacher(from: distill.teacher, student: model, normalization: modelFile.normalization,
                                       classes: data.dataset.classes, root: root, file: config.file, log: log)
        } else {
            teacher = nil
        }
        switch config.freeze {
        case .none: break
        case .backbone: log("froze \(model.freeze(prefixes: UIDetector.backbonePrefixes(stages: nil))) backbone tensors (batch norms keep their statistics)")
        case let .stages(k): log("froze \(model.freeze(prefixes: UIDetector.backbonePrefixes(stages: k))) tensors of the first \(k) backbone stages")
        }
        model.train()

        trainBoxCounts = Self.boxCounts(data.dataset, split: config.data.train)
        classWeights = config.loss.classBalance.weights(classCounts: trainBoxCounts).map(Float.init)
        var lossSettings = DetectionLossSettings(config)
        if let taught = config.distill?.classes {
            lossSettings.distillation.classMask = try Self.taughtClassMask(taught, classes: data.dataset.classes, file: config.file)
        }
        loss = try DetectionLoss(configuration: detector, settings: lossSettings, classWeights: classWeights)
        parallel = communicator.map { DataParallel(communicator: $0, model: model) }
        workers = Self.keepsWorkersAwake && config.threads > 1 ? WorkerTeam(size: config.threads) : nil
        if let communicator { loss.sumNormalizers = { try communicator.sumInRankOrder($0) } }
        decoder = try HeadDecoder(configuration: detector)

        let screens = try DatasetSource(dataset: data.dataset, split: config.data.train)
        source = TolerantSource(config.data.cache == .ram ? Self.cachingDecoded(screens, threads: config.threads, showProgress: showProgress, log: log)
                                                      : screens)
        var preset = try AugmentPreset.load(from: AugmentPreset.locate(config.augment, from: root))
        if let threshold = config.repeatThreshold { preset.sampling.repeatThreshold = threshold }
        let pipeline = AugmentPipeline(preset: preset, source: source, classNames: data.dataset.classes,
                                       outputWidth: detector.inputWidth, outputHeight: detector.inputHeight)
        var loaderOptions = DataLoader.Options()
        loaderOptions.batchSize = config.batchSize
        loaderOptions.workers = config.workers
        loaderOptions.seed = config.seed
        // Train-mode batch norm needs ≥ 2 images; a 1-image tail batch would also be noisy.
        loaderOptions.dropLast = true
        loaderOptions.normalization = normalization
        if let communicator { loaderOptions.shard = (communicator.rank, communicator.size) }
        if !config.repeatScreens.isEmpty {
            let trainSource = source, dataset = data.dataset
            let samples = (0..<trainSource.count).map { dataset.samples[trainSource.sampleIndex(at: $0)] }
            loaderOptions.screenFactors = try ScreenRepeatRule.factors(config.repeatScreens, samples: samples)
            for rule in config.repeatScreens {
                log("sampler: \(samples.filter(rule.matches).count) of \(samples.count) training screens with \(rule.condition) drawn ×\(String(format: "%g", rule.factor))")
            }
        }
        let closing = config.closeMosaic > 0
            ? (fromEpoch: max(0, config.epochs - config.closeMosaic),
               pipeline: AugmentPipeline(preset: preset.unmixed, source: source, classNames: data.dataset.classes,
                                         outputWidth: detector.inputWidth, outputHeight: detector.inputHeight))
            : nil
        loader = try DataLoader(source: source, pipeline: pipeline, options: loaderOptions, closing: closing)

        let groups = config.optimizer.backboneLearningRateMultiplier == 1 ? []
            : [ParameterGroup(prefixes: ["backbone"], learningRateMultiplier: Float(config.optimizer.backboneLearningRateMultiplier))]
        // Every parameter, frozen ones included: a parameter unfrozen later then gets state and moves.
        let parameters = model.namedParameters()
        switch config.optimizer.name {
        case .sgd:
            optimizer = try SGD(parameters: parameters, groups: groups, learningRate: Float(config.optimizer.learningRate),
                                momentum: Float(config.optimizer.momentum), weightDecay: Float(config.optimizer.weightDecay),
                                nesterov: config.optimizer.nesterov && config.optimizer.momentum > 0, decayPolicy: .exceptBiasesAndNormalization)
        case .adamw:
            optimizer = try AdamW(parameters: parameters, groups: groups, learningRate: Float(config.optimizer.learningRate),
                                  beta1: Float(config.optimizer.momentum), weightDecay: Float(config.optimizer.weightDecay),
                                  decayPolicy: .exceptBiasesAndNormalization)
        }
        ema = config.ema.enabled ? try ExponentialMovingAverage(model: model, decay: Float(config.ema.decay), rampUpdates: Float(config.ema.rampUpdates)) : nil
    }

    /// `init: WEIGHTS`: parameters by name; tensors of another shape (a head for another class
    /// count) are skipped and reported, as is everything that was not loaded.
    static func transfer(into model: UIDetector, from path: String, root: URL, log: (String) -> Void) throws -> TransferReport {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
        let weights = try WeightsFile.read(contentsOf: url)
        let report = try model.load(transferringFrom: weights.state, skipMismatched: true)
        log("init from \(path): loaded \(report.loaded.count) tensors, skipped \(report.shapeMismatched.count) of another shape, "
            + "\(report.missing.count) not in the file, \(report.unexpected.count) the model lacks")
        for mismatch in report.shapeMismatched.prefix(8) {
            log("  shape differs, kept initial: \(mismatch.name) model \(mismatch.modelShape) file \(mismatch.sourceShape)")
        }
        return report
    }

    /// `distill.teacher`: a trained model whose head values line up with the student's, prior by
    /// prior — same classes, input, normalization, strides and distribution bins.
    static func teacher(from path: String, student model: UIDetector, normalization: InputNormalization, classes: [String],
                        root: URL, file: String, log: (String) -> Void) throws -> UIDetector {
        func fail(_ message: String) -> ExperimentConfigError { ExperimentConfigError(file: file, line: nil, key: "distill.teacher", message: message) }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
        let trained: TrainedDetector
        do { trained = try TrainedDetector.load(contentsOf: url) } catch { throw fail("\(path): \(error)") }
        let t = trained.model.configuration, student = model.configuration
        guard trained.classes == classes else {
            throw fail("\(path) has the classes \(trained.classes.joined(separator: ", ")); the student trains \(classes.joined(separator: ", ")) — distill from a model of the same dataset")
        }
        guard t.inputWidth == student.inputWidth, t.inputHeight == student.inputHeight else {
            throw fail("\(path) takes \(t.inputWidth)×\(t.inputHeight) inputs, the student \(student.inputWidth)×\(student.inputHeight): set the student's input or pick a teacher trained at its size")
        }
        guard trained.weights.header.normalization == normalization else {
            throw fail("\(path) normalizes pixels with \(trained.weights.header.normalization), the student's model file with \(normalization)")
        }
        let priors = t.priorCount, studentPriors = student.priorCount
        guard t.outputsPerPrior == student.outputsPerPrior, priors == studentPriors else {
            throw fail("\(path) has \(priors) priors of \(t.outputsPerPrior) values, the student \(studentPriors) of \(student.outputsPerPrior): "
                       + "teacher and student need the same strides, head type and distribution bins (width and FPN channels may differ)")
        }
        func parameters(_ detector: UIDetector) -> Int { detector.namedParameters().reduce(0) { $0 + $1.parameter.value.count } }
        log("distill from \(path): \(parameters(trained.model)) parameters (the student: \(parameters(model)))")
        return trained.model
    }

    /// `distill.classes` as a per-class 1/0 mask over the dataset's classes.
    static func taughtClassMask(_ taught: [String], classes: [String], file: String) throws -> [Float] {
        if let unknown = taught.first(where: { !classes.contains($0) }) {
            throw ExperimentConfigError(file: file, line: nil, key: "distill.classes",
                                        message: "'\(unknown)' is not one of the dataset's classes (\(classes.joined(separator: ", ")))")
        }
        return classes.map { taught.contains($0) ? 1 : 0 }
    }

    static func boxCounts(_ dataset: Dataset, split: String) -> [Int] {
        var counts = [Int](repeating: 0, count: dataset.classes.count)
        for index in dataset.splits[split] ?? [] {
            for annotation in dataset.samples[index].annotations where counts.indices.contains(annotation.classIndex) {
                counts[annotation.classIndex] += 1
            }
        }
        return counts
    }

    func loss(outputs: Variable, targets: [[Annotation]], unlabeledClasses: [Set<Int>]? = nil, epoch: Int, teacher: Tensor? = nil) throws -> StepLoss {
        let result = try loss(outputs, targets: targets, unlabeledClasses: unlabeledClasses,
                              taskAligned: config.assigner.staticEpochs.map { epoch >= $0 } ?? false, teacher: teacher)
        return StepLoss(total: result.total, terms: result.terms)
    }

    /// One optimizer step of this run on a loader batch: what the trainer runs and what
    /// `bench train` times (so the benchmark cannot drift from a real run).
    func step(_ batch: Batch, epoch: Int, step: Int, profile: OpProfile? = nil) throws -> StepResult {
        // The teacher sees the batch the student sees (same augmentation), without a gradient.
        try Parallel.withWorkerTeam(workers) {
            let teacherValues = try teacher.map { try $0(Tape.noGradient().constant(batch.images)).value }
            return try TrainingStep.run(images: batch.images, step: step, forward: { try self.model($0) },
                                        objective: { try self.loss(outputs: $0, targets: batch.targets, unlabeledClasses: batch.unlabeledClasses,
                                                                   epoch: epoch, teacher: teacherValues) },
                                        optimizer: optimizer, gradientClip: config.optimizer.gradientClip > 0 ? Float(config.optimizer.gradientClip) : nil,
                                        ema: ema.map { ($0, self.model) }, synchronization: parallel, profile: profile)
        }
    }

    // MARK: Validation and prediction

    func predictor(scoreThreshold: Double, thresholds: [Double?] = []) throws -> DetectorPredictor {
        let options = PostprocessOptions(scoreThreshold: scoreThreshold, classConfidenceThresholds: thresholds,
                                         nmsIoU: config.postprocess.nmsIoU,
                                         crossClassGroups: SimilarClassGroups.indexGroups(classNames: classes),
                                         crossClassIoU: config.postprocess.crossClassIoU, maxDetections: config.postprocess.maxDetections)
        return try DetectorPredictor(model: model, postprocessor: try DetectionPostprocessor(classCount: classes.count, options: options),
                              normalization: normalization, batchSize: config.batchSize)
    }

    /// Predictions on a split with the weights the run reports (the EMA when enabled). In a
    /// data-parallel run every rank calls this (`shared`, validation): each predicts its share of
    /// the screens and every rank gets all predictions. Rank 0 alone calls it for the final
    /// reports (`shared: false`).
    func predict(split: String, showProgress: Bool, thresholds: [Double?] = [], scoreThreshold: Double? = nil, shared: Bool = false)
        throws -> (samples: [Sample], output: DetectorPredictor.Output) {
        let samples = try data.dataset.samples(inSplit: split)
        let predictor = try self.predictor(scoreThreshold: scoreThreshold ?? config.postprocess.evaluationScoreThreshold, thresholds: thresholds)
        let parallel = shared ? self.parallel : nil
        let share = parallel?.share(of: samples.count) ?? samples.indices
        let run = { try predictor.predict(Array(samples[share]), imageURL: self.data.dataset.imageURL(of:), label: "predicting \(split)", showProgress: showProgress) }
        var output = try ema.map { try $0.withAverage(appliedTo: model, run) } ?? run()
        if let parallel { output = try parallel.gather(output, shareStart: share.lowerBound) }
        for (file, reason) in output.unreadable { log("warning: skipped unreadable \(split) image \(file) (\(reason))") }
        return (samples, output)
    }

    func validate(showProgress: Bool) throws -> EvaluationResult {
        let (samples, output) = try predict(split: config.data.val, showProgress: showProgress, shared: true)
        return try DetectionEvaluator(classNames: classes, samples: samples, predictions: output.predictions).evaluate()
    }

    // MARK: Checkpoints

    /// `epochs`: the epochs trained (a budget refits the config's count after epoch 1).
    func header(thresholds: [ClassThreshold]? = nil, provenance: Provenance, epochs: Int) -> WeightsHeader {
        var options = modelFile.options
        options["stride4"] = model.configuration.includeStride4 ? "true" : nil
        return WeightsHeader(architecture: ModelArchitecture(name: UIDetectorConfiguration.architectureName, options: options),
                             input: InputSpec(width: model.configuration.inputWidth, height: model.configuration.inputHeight),
                             normalization: modelFile.normalization, classes: classes, thresholds: thresholds, provenance: provenance,
                             training: TrainingInfo(seed: config.seed, epochs: epochs, config: config.file))
    }

    func checkpoint(state: RunState, metrics: [MetricsLog.Row], run: RunFolder) throws -> Checkpoint {
        var state = state
        state.emaUpdates = ema?.updates ?? 0
        state.optimizerCounters = optimizer.stateCounters()
        let provenance = Provenance(runID: run.id, experiment: config.name, dataset: data.description, trainSplit: config.data.train,
                                    valSplit: config.data.val, created: Provenance.timestamp())
        return Checkpoint(model: WeightsFile(header: header(provenance: provenance, epochs: state.epoch), tensors: model.stateTensors()),
                          optimizer: optimizer.stateTensors(), ema: ema?.stateTensors(), state: state, metrics: metrics)
    }

    func restore(from checkpoint: Checkpoint) throws {
        try model.load(state: checkpoint.model.state)
        try optimizer.loadState(tensors: Dictionary(uniqueKeysWithValues: checkpoint.optimizer.map { ($0.name, $0.tensor) }),
                                counters: checkpoint.state.optimizerCounters)
        if let ema {
            guard let tensors = checkpoint.ema else { throw CheckpointError(folder: "checkpoint", reason: "has no EMA state but the config enables ema") }
            try ema.loadState(tensors: Dictionary(uniqueKeysWithValues: tensors.map { ($0.name, $0.tensor) }), updates: checkpoint.state.emaUpdates)
        }
    }

    /// class_weights.json: the classification-loss weight of each class and the box counts it came from.
    func writeRunFiles(to run: RunFolder, state: RunState) throws {
        var entries: [[String: Any]] = []
        for (c, name) in classes.enumerated() {
            entries.append(["class": name, "train_boxes": trainBoxCounts[c], "weight": Double(classWeights[c])])
        }
        var object: [String: Any] = ["method": config.loss.classBalance.configName, "classes": entries]
        switch config.loss.classBalance {
        case .none: break
        case let .effectiveNumber(beta): object["beta"] = beta
        case let .inverseFrequency(power): object["power"] = power
        }
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
                             to: run.url.appendingPathComponent("class_weights.json"))
        try run.writeStatus(state)
    }
}
