import Data
import Imaging
import XCTest
@testable import Augment

/// Screens from two sources carry the classes they do not mark through every transform; an image
/// made of several screens is unlabeled in what any of them leaves out.
final class UnlabeledClassesTests: XCTestCase {
    private func screen(_ seed: UInt8, unlabeled: Set<Int>, width: Int = 100, height: Int = 200) -> AnnotatedImage {
        AnnotatedImage(image: patternedImage(width: width, height: height, seed: seed), annotations: [annotation(0, 10, 10, 20, 20)],
                       unlabeledClasses: unlabeled)
    }

    func testMosaicMixupAndPasteTakeTheUnionAndGeometryKeepsIt() {
        let mosaic = Mosaic.compose([screen(1, unlabeled: [2]), screen(2, unlabeled: []), screen(3, unlabeled: [3, 4]), screen(4, unlabeled: [])],
                                    centerX: 100, centerY: 200, outputWidth: 100, outputHeight: 200, fill: RGB(114, 114, 114),
                                    rules: AugmentPreset.BoxRules())
        XCTAssertEqual(mosaic.unlabeledClasses, [2, 3, 4])
        XCTAssertEqual(MixUp.blend(screen(5, unlabeled: [1]), screen(6, unlabeled: [5]), ratio: 0.5).unlabeledClasses, [1, 5])
        var target = screen(7, unlabeled: [])
        _ = CopyPaste.paste(screen(8, unlabeled: [6], width: 10, height: 10), scale: 1, atX: 50, y: 50, into: &target,
                            rules: AugmentPreset.BoxRules())
        XCTAssertEqual(target.unlabeledClasses, [6], "a pasted patch may show what its source does not mark")
        let moved = ScaleTranslate.apply(screen(9, unlabeled: [3]), map: BoxMap(scaleX: 0.5, scaleY: 0.5, offsetX: 3, offsetY: 4),
                                         outputWidth: 100, outputHeight: 200, fill: RGB(114, 114, 114), rules: AugmentPreset.BoxRules())
        XCTAssertEqual(moved.unlabeledClasses, [3])
        var flipped = screen(10, unlabeled: [3])
        HorizontalFlip.apply(&flipped)
        XCTAssertEqual(flipped.unlabeledClasses, [3])
    }

    /// From the dataset's samples into the loader's batches, image by image.
    func testBatchesCarryEachImagesUnlabeledClasses() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("unlabeled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        var samples: [Sample] = []
        for index in 0..<4 {
            try ImageIO.writePNG(patternedImage(width: 20, height: 40, seed: UInt8(index)), to: root.appendingPathComponent("\(index).png"))
            var sample = Sample(id: "\(index)", imagePath: "\(index).png", width: 20, height: 40, annotations: [annotation(0, 2, 2, 8, 8)])
            sample.unlabeledClasses = index % 2 == 0 ? [1, 2] : nil
            samples.append(sample)
        }
        let dataset = Dataset(root: root, classes: ["Text", "Slider", "Checkbox"], samples: samples, splits: ["train": [0, 1, 2, 3]])
        let source = try DatasetSource(dataset: dataset, split: "train")
        XCTAssertEqual(try source.load(0).unlabeledClasses, [1, 2])
        XCTAssertEqual(try source.load(1).unlabeledClasses, [])
        var options = DataLoader.Options()
        options.batchSize = 4
        let loader = try DataLoader(source: source, pipeline: AugmentPipeline(preset: AugmentPreset(), source: source, outputWidth: 32,
                                                                              outputHeight: 64), options: options)
        let batch = try XCTUnwrap(try loader.epoch(0).next())
        XCTAssertEqual(batch.sampleIndices.count, 4)
        for (image, sampleIndex) in batch.sampleIndices.enumerated() {
            XCTAssertEqual(batch.unlabeledClasses[image], sampleIndex % 2 == 0 ? [1, 2] : [], "image \(image) (sample \(sampleIndex))")
        }
    }
}
