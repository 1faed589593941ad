/// Every augmentation setting, as read from a YAML preset in `Configs/augment/`.
/// Each transform fires with its own probability per sample; probability 0 leaves the
/// image and its boxes untouched.
public struct AugmentPreset: Equatable {
    /// Four screens on a 2W×2H canvas around a random centre, then cropped/scaled back to W×H.
    public struct Mosaic: Equatable {
        public var probability = 0.0
        /// Range of the mosaic centre, as a fraction of the output size (YOLOv5 uses 0.5...1.5).
        public var center: ClosedRange<Double> = 0.5...1.5
        /// Crop-back scale: 1 keeps the centre W×H window at native scale, 0.5 shows the whole canvas.
        public var scale: ClosedRange<Double> = 0.5...1.0
        public init() {}
    }

    /// Blend with a second sample; the boxes of both are kept (Zhang et al. 2017).
    public struct MixUp: Equatable {
        public var probability = 0.0
        /// Weight of the first image drawn from Beta(alpha, alpha) unless `ratio` is set.
        public var alpha = 8.0
        public var ratio: Double?
        public init() {}
    }

    /// Crop labelled elements from other screens and paste them at free places
    /// (box-only data: the whole rectangle is pasted, with any donor boxes inside it).
    public struct CopyPaste: Equatable {
        public var probability = 0.0
        /// Most elements pasted into one image.
        public var maxElements = 3
        /// Largest share of a pasted box, or of an existing box, that the other may cover.
        public var maxOverlap = 0.1
        /// Donor element weight = (boxes of its class)^-rarityPower: 0 = natural frequency,
        /// 1 = every class equally likely, >1 = rare classes beyond uniform.
        public var rarityPower = 1.0
        /// Random positions tried per element before giving up on it.
        public var placementAttempts = 20
        /// Classes of grouping regions (cards, lists, dialogs) that a pasted element may lie
        /// inside; every other box (text, icons, pictures, controls) is never pasted over.
        /// Names of the dataset's classes; names the dataset lacks are ignored, so one preset
        /// serves several taxonomies.
        public var backgroundClasses = ["Container", "Dialog"]
        public init() {}
    }

    /// Random zoom about the image centre and shift (no rotation or shear: UIs are axis-aligned).
    public struct ScaleTranslate: Equatable {
        public var probability = 0.0
        public var scale: ClosedRange<Double> = 1.0...1.0
        /// Largest shift as a fraction of the output width/height.
        public var translate = 0.0
        public init() {}
    }

    /// Colour jitter in HSV: each gain is drawn uniformly in 1 ± amplitude (hue: a shift of ± amplitude turns).
    public struct HSV: Equatable {
        public var probability = 0.0
        public var hue = 0.0
        public var saturation = 0.0
        public var value = 0.0
        public init() {}
    }

    /// Clip-and-drop rule applied after every transform.
    public struct BoxRules: Equatable {
        /// A box is dropped once its visible area falls below this share of its full (unclipped) area.
        public var minVisibleFraction = 0.25
        /// A box is dropped when its visible width or its visible height is below this many pixels.
        /// There is deliberately no aspect-ratio rule: text lines and dividers are long and thin.
        public var minSide = 2.0
        public init() {}
    }

    /// Repeat-factor sampling (Gupta et al., LVIS 2019): image factor = max over its classes of
    /// max(1, √(t / f_c)). A threshold of 0 turns it off.
    public struct Sampling: Equatable {
        public var repeatThreshold = 0.0
        public init() {}
    }

    public var mosaic = Mosaic()
    public var mixUp = MixUp()
    public var copyPaste = CopyPaste()
    public var scaleTranslate = ScaleTranslate()
    public var hsv = HSV()
    public var grayscaleProbability = 0.0
    /// Off by default: mirroring a UI changes its meaning (back buttons, reading order).
    public var flipProbability = 0.0
    public var boxes = BoxRules()
    public var sampling = Sampling()

    /// Everything off: the loader only letterboxes.
    public init() {}

    /// The preset with mosaic, mixup and copy-paste off and everything else kept: whole screens
    /// as they are, for the last epochs (`close_mosaic`).
    public var unmixed: AugmentPreset {
        var preset = self
        preset.mosaic.probability = 0
        preset.mixUp.probability = 0
        preset.copyPaste.probability = 0
        return preset
    }
}
