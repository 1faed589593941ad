import XCTest
@testable import Augment
import Data
import Imaging
import Support

final class PipelineTests: XCTestCase {
    func testAllProbabilitiesZeroIsTheIdentity() throws {
        let source = syntheticSource(count: 6)  // 60×120 screens = the output size: letterbox is the identity too
        var preset = AugmentPreset()
        preset.mosaic.center = 0.3...1.7
        preset.scaleTranslate.scale = 0.5...1.5
        preset.scaleTranslate.translate = 0.3
        preset.hsv.hue = 0.4
        let pipeline = AugmentPipeline(preset: preset, source: source, outputWidth: 60, outputHeight: 120)
        for position in 0..<source.count {
            var random = SeededRandom(seed: UInt64(position))
            let output = try pipeline.augment(position, from: source, random: &random)
            XCTAssertEqual(output.image, source.items[position].image)
            XCTAssertEqual(output.annotations, source.items[position].annotations)
        }
    }

    func testNoBoxEverLeavesTheCanvas() throws {
        let source = syntheticSource(count: 12)
        var preset = AugmentPreset()
        preset.mosaic.probability = 0.7
        preset.mosaic.scale = 0.4...1.2
        preset.mixUp.probability = 0.5
        preset.copyPaste.probability = 1
        preset.copyPaste.maxOverlap = 0.5
        preset.scaleTranslate.probability = 1
        preset.scaleTranslate.scale = 0.3...2.0
        preset.scaleTranslate.translate = 0.4
        preset.hsv.probability = 0.5
        preset.hsv.value = 0.3
        preset.grayscaleProbability = 0.2
        preset.flipProbability = 0.5
        let pipeline = AugmentPipeline(preset: preset, source: source, outputWidth: 48, outputHeight: 96)
        var boxes = 0
        for seed in 0..<300 {
            var random = SeededRandom(seed: UInt64(seed))
            let output = try pipeline.augment(seed % source.count, from: source, random: &random)
            XCTAssertEqual(output.width, 48); XCTAssertEqual(output.height, 96)
            XCTAssertEqual(output.annotations.count, output.visibleFractions.count)
            for annotation in output.annotations {
                let b = annotation.box
                XCTAssert(b.minX >= 0 && b.minY >= 0 && b.maxX <= 48 + 1e-9 && b.maxY <= 96 + 1e-9, "seed \(seed): \(b)")
                XCTAssert(b.width >= preset.boxes.minSide && b.height >= preset.boxes.minSide, "seed \(seed): \(b)")
            }
            boxes += output.annotations.count
        }
        XCTAssertGreaterThan(boxes, 300, "the property test must see boxes")
    }

    func testSameSeedSameResult() throws {
        let source = syntheticSource(count: 8)
        var preset = AugmentPreset()
        preset.mosaic.probability = 0.5
        preset.copyPaste.probability = 0.5
        preset.mixUp.probability = 0.5
        preset.hsv.probability = 1
        preset.hsv.saturation = 0.5
        let pipeline = AugmentPipeline(preset: preset, source: source, outputWidth: 40, outputHeight: 80)
        var a = SeededRandom(seed: 5), b = SeededRandom(seed: 5), c = SeededRandom(seed: 6)
        let first = try pipeline.augment(3, from: source, random: &a)
        XCTAssertEqual(first, try pipeline.augment(3, from: source, random: &b))
        XCTAssertNotEqual(first, try pipeline.augment(3, from: source, random: &c))
    }

    func testMixUpBlendsPixelsAndKeepsBothBoxSets() {
        let a = AnnotatedImage(image: RGBImage(width: 4, height: 4, fill: RGB(100, 0, 255)), annotations: [annotation(0, 0, 0, 2, 2)])
        let b = AnnotatedImage(image: RGBImage(width: 4, height: 4, fill: RGB(200, 255, 0)), annotations: [annotation(1, 1, 1, 2, 2)])
        let mixed = MixUp.blend(a, b, ratio: 0.5)
        XCTAssertEqual(mixed.image[2, 3], RGB(150, 128, 128))
        XCTAssertEqual(mixed.annotations.map(\.classIndex), [0, 1])
        XCTAssertEqual(MixUp.blend(a, b, ratio: 1).image, a.image)
    }

    func testBetaSamplerMoments() {
        // Beta(8, 8): mean 1/2, variance αβ / ((α+β)²(α+β+1)) = 64 / (256·17).
        var random = SeededRandom(seed: 3)
        let draws = (0..<20000).map { _ in random.beta(8, 8) }
        let mean = draws.reduce(0, +) / Double(draws.count)
        let variance = draws.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(draws.count)
        XCTAssertEqual(mean, 0.5, accuracy: 0.005)
        XCTAssertEqual(variance, 64.0 / (256 * 17), accuracy: 0.001)
        // Beta(0.5, 0.5) (shape < 1 path): mean 1/2, variance 1/8.
        let arcsine = (0..<20000).map { _ in random.beta(0.5, 0.5) }
        XCTAssertEqual(arcsine.reduce(0, +) / 20000, 0.5, accuracy: 0.01)
        XCTAssertTrue(arcsine.allSatisfy { (0...1).contains($0) })
    }

    func testColourTransforms() {
        var red = RGBImage(width: 2, height: 1, fill: RGB(255, 0, 0))
        ColorJitter.hsv(&red, hueShift: 1.0 / 3, saturationGain: 1, valueGain: 1)
        XCTAssertEqual(red[0, 0], RGB(0, 255, 0), "a third of a turn takes red to green")
        var dim = RGBImage(width: 1, height: 1, fill: RGB(200, 100, 50))
        ColorJitter.hsv(&dim, hueShift: 0, saturationGain: 1, valueGain: 0.5)
        XCTAssertEqual(dim[0, 0], RGB(100, 50, 25), "value gain scales all channels")
        var faded = RGBImage(width: 1, height: 1, fill: RGB(200, 100, 50))
        ColorJitter.hsv(&faded, hueShift: 0, saturationGain: 0, valueGain: 1)
        XCTAssertEqual(faded[0, 0], RGB(200, 200, 200), "no saturation leaves the value as grey")
        let pattern = patternedImage(width: 40, height: 40, seed: 3)
        var same = pattern
        ColorJitter.hsv(&same, hueShift: 0, saturationGain: 1, valueGain: 1)
        XCTAssertEqual(same, pattern, "unit gains and no shift are the identity")
        var gray = RGBImage(width: 1, height: 1, fill: RGB(255, 0, 0))
        ColorJitter.grayscale(&gray)
        XCTAssertEqual(gray[0, 0], RGB(77, 77, 77), "BT.601: 0.299·255 ≈ 76.2, 77/256 fixed point")
    }
}

final class LetterboxParityTests: XCTestCase {
    /// Un-augmented training input must be exactly what inference feeds the model.
    func testNoAugmentationEqualsTheInferenceLetterbox() throws {
        for (width, height) in [(385, 640), (360, 640), (100, 90), (256, 512), (128, 300)] {
            let boxes = [annotation(0, 10, 20, 40, 30), annotation(1, 0, 0, Double(width), Double(height))]
            let source = InMemorySource([AnnotatedImage(image: patternedImage(width: width, height: height), annotations: boxes)])
            let pipeline = AugmentPipeline(preset: AugmentPreset(), source: source, outputWidth: 256, outputHeight: 512)
            var random = SeededRandom(seed: 1)
            let output = try pipeline.augment(0, from: source, random: &random)
            let (expected, letterbox) = source.items[0].image.letterboxed(to: 256, 512)
            XCTAssertEqual(output.image, expected, "\(width)×\(height)")
            let expectedBoxes = boxes.map { a -> BoundingBox in
                let r = letterbox.toTarget(a.box)
                return box(r.x, r.y, r.width, r.height)
            }
            assertBoxesEqual(output.annotations.map(\.box), expectedBoxes, accuracy: 1e-9)
        }
    }
}

final class IdentityClippingTests: XCTestCase {
    /// A screen already at the model input size with no transform firing still gets clip-and-drop.
    func testBoxStickingOutOfAnInputSizedScreenIsClippedAndDropped() throws {
        // 60×120 screen = the output size. Box 0 sticks out on the right by 10 of its 30 px → clipped to 20;
        // box 1 is 80% outside at the bottom → dropped (default minVisibleFraction 0.25); box 2 is inside → exact.
        let boxes = [annotation(0, 40, 10, 30, 10), annotation(1, 10, 112, 10, 40), annotation(2, 5.25, 50.5, 7.125, 3.5)]
        let source = InMemorySource([AnnotatedImage(image: patternedImage(width: 60, height: 120), annotations: boxes)])
        let pipeline = AugmentPipeline(preset: AugmentPreset(), source: source, outputWidth: 60, outputHeight: 120)
        var random = SeededRandom(seed: 1)
        let output = try pipeline.augment(0, from: source, random: &random)
        XCTAssertEqual(output.image, source.items[0].image)
        XCTAssertEqual(output.annotations.map(\.classIndex), [0, 2])
        XCTAssertEqual(output.annotations.map(\.box), [box(40, 10, 20, 10), box(5.25, 50.5, 7.125, 3.5)])
        XCTAssertEqual(output.visibleFractions[0], 2.0 / 3, accuracy: 1e-12)
    }
}
