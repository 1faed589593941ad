import Data
import Synthetic
import Augment
import Detection
import Foundation
import Kernels

/// Everything a training run needs, as read from `Experiments/NAME.yaml` (plus `--set`
/// overrides). Paths are as written; `ExperimentConfig.resolve` turns them into files relative
/// to the repository root (the folder with Package.swift), like dataset configs do.
public struct ExperimentConfig: Equatable {
    public struct SyntheticData: Equatable {
        public var count = 600
        public var seed: UInt64 = 1
        /// One app (look) per this many screens; splits are by app.
        public var screensPerApp = 12
        public var valFraction = 0.15
        public var testFraction = 0.15
        /// `class_mix`: a preset name or class → multiplier (Data's `ClassMix`).
        public var classMix = ClassMix.standard
        /// `text`: freetype (real fonts) or bitmap (generator version 1's pixel font).
        public var text = SyntheticText.freetype
        /// `style`: mixed (many app looks) or ios (Data's `SyntheticStyle`).
        public var style = SyntheticStyle.mixed
    }

    /// A teacher whose outputs on the same augmented batch join the loss: its class probabilities
    /// as quality-focal targets on every prior, its softened side distributions as KL targets at
    /// the positives (localization distillation, Zheng et al. CVPR 2022). The teacher needs the
    /// student's input size, normalization, classes, strides and distribution bins; its width and
    /// FPN channels may differ.
    public struct Distillation: Equatable {
        /// `teacher`: a `.slw` file, or `run:NAME` (the newest finished run of experiment NAME).
        public var teacher: String
        /// `classification`: weight of the class-probability term (the `cls` term's scale).
        public var classificationWeight = 1.0
        /// `localization`: weight of the distribution term (LD's 0.25, the `dfl` term's scale).
        public var localizationWeight = 0.25
        /// `temperature`: τ softening both side distributions (LD's 10); the term is scaled by τ².
        public var temperature = 10.0
        /// `classes`: the classes the teacher teaches — their scores, and the box edges at their
        /// positives (nil: all). The others learn from ground truth alone: the classes a teacher
        /// was never shown, when it anchors a model that learns new ones (learning without forgetting).
        public var classes: [String]?

        public init(teacher: String) { self.teacher = teacher }
    }

    /// `data.cache`: where the training screens are decoded from each time a sample needs one.
    public enum ScreenCache: String, CaseIterable, Equatable {
        /// Read and decode the image file every time (no memory beyond the loader's batches).
        case none
        /// Decode every training screen once at the start and keep it in memory (`DecodedScreenCache`;
        /// vins-ui's 2,125 training screens take 1.54 GB). Refused, with a message, when the screens
        /// would take over half of the available memory. The same bits either way.
        case ram
    }

    public struct DataSection: Equatable {
        /// A dataset config, YOLO folder or COCO file; nil with `synthetic`.
        public var dataset: String?
        public var synthetic: SyntheticData?
        /// `add_synthetic`: synthetic screens whose training split joins `dataset`'s (the classes
        /// vins-ui lacks); validation and test stay `dataset`'s. Each source's screens get no
        /// classification loss on the classes it never marks (`DatasetMix`).
        public var addedSynthetic: SyntheticData?
        public var train = "train", val = "val", test = "test"
        /// Leave the test split alone (report only on val).
        public var evaluateTest = true
        public var cache = ScreenCache.none
    }

    public struct LossSection: Equatable {
        public var classification = DetectionLossSettings.Classification.qualityFocal
        /// Weights of the classification loss per class, from the training split's box counts.
        public var classBalance = ClassBalance.none
        /// NanoDet-Plus's weights: QFL 1, GIoU 2, DFL 0.25.
        public var classificationWeight = 1.0, boxWeight = 2.0, distributionWeight = 0.25
        public var focalAlpha = 0.25, focalGamma = 2.0
    }

    public struct AssignerSection: Equatable {
        /// Epochs with the static ATSS assigner before switching to task-aligned assignment
        /// (PP-PicoDet's recipe: predictions mean nothing at first); nil keeps ATSS throughout,
        /// the default because it scored higher at every matched epoch on synthetic screens
        /// (Experiments/README.md, "ATSS or task-aligned").
        public var staticEpochs: Int?
        /// ATSS lowers its threshold so each box gets at least this many positives among the
        /// candidates centred inside it (0: the paper's rule). See `ATSSAssigner`.
        public var minimumPositives = 0
        /// ATSS skips candidates whose box lies beyond the head's reach (bins − 1 strides).
        public var withinReach = false
        /// ATSS gives a prior claimed by several boxes to the smallest (FCOS), not the one of highest IoU.
        public var smallestWins = false
    }

    public enum OptimizerName: String, CaseIterable, Equatable { case sgd, adamw }

    public struct OptimizerSection: Equatable {
        public var name = OptimizerName.adamw
        public var learningRate = 0.002
        public var momentum = 0.9
        public var weightDecay = 0.05
        public var nesterov = true
        /// Learning-rate multiplier of the backbone (lower it when fine-tuning a pretrained one).
        public var backboneLearningRateMultiplier = 1.0
        /// Global-norm gradient clipping; 0 = off.
        public var gradientClip = 35.0
    }

    public struct ScheduleSection: Equatable {
        public var warmupEpochs = 1.0
        public var finalFactor = 0.05
        public var warmupStartFactor = 0.1
        public var cosine = true
    }

    public struct EMASection: Equatable {
        public var enabled = true
        public var decay = 0.9998
        public var rampUpdates = 2000.0
    }

    public enum Freeze: Equatable {
        case none, backbone, stages(Int)
    }

    public struct PostprocessSection: Equatable {
        public var nmsIoU = 0.6
        /// 1: validation and the run's reports score class-wise NMS only, as COCO and Ultralytics
        /// do. Screen Recognition's duplicate removal (0.8, what `predict` applies) is for what a
        /// screen reader presents; on vins-ui it cost the shipped model 1.0 point of test mAP@0.5
        /// (Icon −3.0, Picture −2.9) and moved no class's F1 at its picked threshold
        /// (Reports/accuracy/README.md, "Scoring class-wise").
        public var crossClassIoU = PostprocessOptions.scoringCrossClassIoU
        public var maxDetections = 300
        /// Minimum score kept for evaluation (AP needs the whole curve).
        public var evaluationScoreThreshold = 0.001
    }

    public var name: String
    public var file: String
    public var data = DataSection()
    public var model = "Configs/models/ui-detector.yaml"
    /// Overrides the model config's input size (height × width, multiples of 32).
    public var inputWidth: Int?, inputHeight: Int?
    public var augment = "default"
    /// The last N epochs without mosaic, mixup and copy-paste (Ultralytics' close_mosaic; all of
    /// them when N ≥ epochs, as in a `--set epochs=1` short run); 0: never.
    public var closeMosaic = 0
    /// Overrides the preset's repeat-factor threshold (0 = plain uniform sampling).
    public var repeatThreshold: Double?
    /// `sampler.repeat_screens`: screens of a manifest column's value drawn more often.
    public var repeatScreens: [ScreenRepeatRule] = []
    public var loss = LossSection()
    public var assigner = AssignerSection()
    public var optimizer = OptimizerSection()
    public var schedule = ScheduleSection()
    public var epochs = 30
    /// Wall-clock budget in seconds; after the first epoch the epoch count is fitted to it (and
    /// stored, so a resumed run keeps the same schedule).
    public var budgetSeconds: Double?
    /// The file's budget when `--set epochs=…` (without `--set budget=…`) set it aside: the run
    /// trains exactly that many epochs.
    public var budgetSetAside: Double?
    public var batchSize = 8
    public var seed: UInt64 = 0
    public var threads = 2
    public var workers = 1
    /// `dense_kernels` (earlier `dense_forward`): the training graph's dense convolutions
    /// (`Conv2dKernel.DenseKernels`) — `winograd`, the default since 2026-11-30: forward passes and
    /// stride-1 input gradients on the inference path's packed kernel, the 3×3 stride-1 layers' by
    /// Winograd F(2×2, 3×3), every weight gradient as row dot products; `packed`, the default of
    /// 2026-11-29: the same without Winograd and with the stem's and 3×3 weight gradients on sgemm;
    /// `openblas`: im2col + OpenBLAS sgemm throughout, what runs trained on before; `winograd-weights`
    /// (opt-in): `winograd` with the 3×3 stride-1 layers' weight gradients in Winograd's domain too.
    /// Each rounds its sums in its own order, so each is a different run of one seed; over four seeds
    /// of a 12-epoch arm, `winograd` and `packed` differ in test and val mAP within the seeds' spread
    /// (Reports/benchmarks.md). All but `openblas` give the same bits on either instruction set.
    public var denseKernels = DenseKernels.winograd
    public typealias DenseKernels = Conv2dKernel.DenseKernels
    public var ema = EMASection()
    public var initWeights: String?
    /// `distill`: knowledge distillation from a trained ScreenLab model (nil: none).
    public var distill: Distillation?
    public var freeze = Freeze.none
    public var validationInterval = 1
    /// `max-f1`, `precision:P` or `recall:R`, as `screenlab thresholds pick` takes.
    public var thresholdStrategy = "max-f1"
    public var postprocess = PostprocessSection()
    /// Test screens drawn with their predictions at the end.
    public var previewImages = 8

    public init(name: String, file: String) {
        self.name = name
        self.file = file
    }
}
