import Data
import Imaging
import Support

/// The whole augmentation of one training sample, in YOLOv5's order: mosaic or letterbox,
/// scale/translate (one resampling that also crops the mosaic back), copy-paste, mixup,
/// HSV, grayscale, flip. Boxes are clipped and dropped after every geometric step.
/// Every random draw comes from the `random` passed in, in a fixed order, so a sample's result
/// depends only on that generator's seed.
public struct AugmentPipeline {
    public let preset: AugmentPreset
    public let outputWidth: Int
    public let outputHeight: Int
    /// YOLO's padding grey: the mean-ish value that a letterboxed border shows at inference.
    public let fill: RGB
    /// Class indices of `preset.copyPaste.backgroundClasses` in the source's classes: boxes
    /// that a pasted element may lie inside.
    public let pasteBackgroundClasses: Set<Int>
    let donors: DonorIndex

    /// `outputWidth`×`outputHeight` is the model input (the reference detector takes 256 wide × 512 high).
    /// `classNames` are the source's classes, for the preset's class-name settings.
    public init(preset: AugmentPreset, source: SampleSource, classNames: [String] = [], outputWidth: Int = 256,
                outputHeight: Int = 512, fill: RGB = RGB(114, 114, 114)) {
        self.preset = preset
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.fill = fill
        pasteBackgroundClasses = Set(preset.copyPaste.backgroundClasses.compactMap { classNames.firstIndex(of: $0) })
        donors = preset.copyPaste.probability > 0
            ? DonorIndex(annotations: (0..<source.count).map { source.annotations(at: $0) }, rarityPower: preset.copyPaste.rarityPower)
            : DonorIndex(annotations: [], rarityPower: 0)
    }

    public func augment(_ position: Int, from source: SampleSource, random: inout SeededRandom) throws -> AnnotatedImage {
        var result = try geometric(position, from: source, random: &random)
        if random.chance(preset.copyPaste.probability) {
            try pasteElements(into: &result, from: source, random: &random)
        }
        if random.chance(preset.mixUp.probability) {
            let partner = try geometric(random.int(in: 0..<source.count), from: source, random: &random)
            let ratio = preset.mixUp.ratio ?? random.beta(preset.mixUp.alpha, preset.mixUp.alpha)
            result = MixUp.blend(result, partner, ratio: ratio)
        }
        if random.chance(preset.hsv.probability) {
            let hsv = preset.hsv
            let hue = random.uniform(-hsv.hue, hsv.hue)
            let saturation = random.uniform(1 - hsv.saturation, 1 + hsv.saturation)
            let value = random.uniform(1 - hsv.value, 1 + hsv.value)
            ColorJitter.hsv(&result.image, hueShift: hue, saturationGain: saturation, valueGain: value)
        }
        if random.chance(preset.grayscaleProbability) { ColorJitter.grayscale(&result.image) }
        if random.chance(preset.flipProbability) { HorizontalFlip.apply(&result) }
        return result
    }

    /// Letterbox or mosaic, then scale/translate, composed into one map onto the output (one resampling).
    func geometric(_ position: Int, from source: SampleSource, random: inout SeededRandom) throws -> AnnotatedImage {
        if random.chance(preset.mosaic.probability) {
            var tiles = [try source.load(position)]
            for _ in 0..<3 { tiles.append(try source.load(random.int(in: 0..<source.count))) }
            let center = preset.mosaic.center
            let centerX = Int(random.uniform(center.lowerBound, center.upperBound) * Double(outputWidth))
            let centerY = Int(random.uniform(center.lowerBound, center.upperBound) * Double(outputHeight))
            let canvasSize = Mosaic.canvasSize(outputWidth: outputWidth, outputHeight: outputHeight)
            let scale = random.uniform(preset.mosaic.scale.lowerBound, preset.mosaic.scale.upperBound)
            let map = scaleTranslated(ScaleTranslate.map(canvasWidth: canvasSize.width, canvasHeight: canvasSize.height,
                                                         outputWidth: outputWidth, outputHeight: outputHeight,
                                                         scale: scale, shiftX: 0, shiftY: 0),
                                      random: &random)
            // The map depends on the canvas's size only, so it is drawn first and the tiles are
            // drawn only where the output will read them (the same draws, in the same order;
            // nowhere when nothing lands on the output).
            let read = Placement.plan(sourceWidth: canvasSize.width, sourceHeight: canvasSize.height, map: map,
                                      canvasWidth: outputWidth, canvasHeight: outputHeight)?.sourceRegion
            let canvas = Mosaic.compose(tiles, centerX: centerX, centerY: centerY, outputWidth: outputWidth,
                                        outputHeight: outputHeight, fill: fill, rules: preset.boxes,
                                        visible: read.map { ($0.columns, $0.rows) } ?? (0..<0, 0..<0))
            return ScaleTranslate.apply(canvas, map: map, outputWidth: outputWidth, outputHeight: outputHeight,
                                        fill: fill, rules: preset.boxes)
        }
        let screen = try source.load(position)
        let map = scaleTranslated(letterboxMap(width: screen.width, height: screen.height), random: &random)
        return ScaleTranslate.apply(screen, map: map, outputWidth: outputWidth, outputHeight: outputHeight,
                                    fill: fill, rules: preset.boxes)
    }

    /// `base` followed, with the preset's probability, by a random zoom about the output's centre and shift.
    private func scaleTranslated(_ base: BoxMap, random: inout SeededRandom) -> BoxMap {
        guard random.chance(preset.scaleTranslate.probability) else { return base }
        let st = preset.scaleTranslate
        let zoom = ScaleTranslate.map(canvasWidth: outputWidth, canvasHeight: outputHeight, outputWidth: outputWidth,
                                      outputHeight: outputHeight, scale: random.uniform(st.scale.lowerBound, st.scale.upperBound),
                                      shiftX: random.uniform(-st.translate, st.translate) * Double(outputWidth),
                                      shiftY: random.uniform(-st.translate, st.translate) * Double(outputHeight))
        return base.followed(by: zoom)
    }

    /// The inference letterbox's exact map (Imaging's `Letterbox`: whole-pixel resized size,
    /// left/top padding the floor of half the slack), so un-augmented training input equals inference input.
    func letterboxMap(width: Int, height: Int) -> BoxMap {
        let letterbox = Letterbox(sourceWidth: width, sourceHeight: height, targetWidth: outputWidth, targetHeight: outputHeight)
        return BoxMap(scaleX: letterbox.scaleX, scaleY: letterbox.scaleY,
                      offsetX: Double(letterbox.padLeft), offsetY: Double(letterbox.padTop))
    }

    /// Up to `maxElements` donor elements, each at its donor's letterbox scale, on the screen
    /// content where they cover little (see `CopyPaste.freeSpot`).
    func pasteElements(into result: inout AnnotatedImage, from source: SampleSource, random: inout SeededRandom) throws {
        let settings = preset.copyPaste
        guard !donors.isEmpty, settings.maxElements > 0 else { return }
        let count = random.int(in: 1...settings.maxElements)
        for _ in 0..<count {
            guard let element = donors.draw(&random) else { return }
            let donor = try source.load(element.sampleIndex)
            // A source may deliver other boxes than it listed (an unreadable image the trainer
            // replaces with a blank screen): that donor has nothing to give.
            guard donor.annotations.indices.contains(element.annotationIndex) else { continue }
            let box = donor.annotations[element.annotationIndex].box
            guard let patch = CopyPaste.crop(donor, element: box, rules: preset.boxes) else { continue }
            let scale = min(Double(outputWidth) / Double(donor.width), Double(outputHeight) / Double(donor.height))
            let width = Int((Double(patch.width) * scale).rounded()), height = Int((Double(patch.height) * scale).rounded())
            guard let spot = CopyPaste.freeSpot(width: width, height: height, within: result.contentRegions,
                                                existing: result.annotations, backgroundClasses: pasteBackgroundClasses,
                                                maxOverlap: settings.maxOverlap, attempts: settings.placementAttempts,
                                                random: &random) else { continue }
            CopyPaste.paste(patch, scale: scale, atX: spot.x, y: spot.y, into: &result, rules: preset.boxes)
        }
    }
}
