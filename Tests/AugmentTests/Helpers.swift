import XCTest
@testable import Augment
import Data
import Imaging
import Support

func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> BoundingBox { BoundingBox(x: x, y: y, width: w, height: h) }

func annotation(_ c: Int, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Annotation {
    Annotation(classIndex: c, box: box(x, y, w, h))
}

/// A screen with a distinct colour per pixel position (so misplaced pixels are caught).
func patternedImage(width: Int, height: Int, seed: UInt8 = 0) -> RGBImage {
    var image = RGBImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width { image[x, y] = RGB(UInt8(truncatingIfNeeded: x &+ Int(seed)), UInt8(truncatingIfNeeded: y), seed &+ 7) }
    }
    return image
}

/// A small synthetic "dataset" of screens with boxes of a few classes, class 2 rare.
func syntheticSource(count: Int, width: Int = 60, height: Int = 120) -> InMemorySource {
    var random = SeededRandom(seed: 99)
    var items: [AnnotatedImage] = []
    for i in 0..<count {
        var annotations: [Annotation] = []
        for _ in 0..<random.int(in: 1...5) {
            let w = random.uniform(4, 30), h = random.uniform(3, 20)
            annotations.append(annotation(random.int(in: 0...1), random.uniform(0, Double(width) - w),
                                          random.uniform(0, Double(height) - h), w, h))
        }
        if i % 5 == 0 { annotations.append(annotation(2, 5, 5, 10, 10)) }
        items.append(AnnotatedImage(image: patternedImage(width: width, height: height, seed: UInt8(i)), annotations: annotations))
    }
    return InMemorySource(items)
}

func assertBoxesEqual(_ a: [BoundingBox], _ b: [BoundingBox], accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, "box count", file: file, line: line)
    for (p, q) in zip(a, b) {
        XCTAssertEqual(p.x, q.x, accuracy: accuracy, file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: accuracy, file: file, line: line)
        XCTAssertEqual(p.width, q.width, accuracy: accuracy, file: file, line: line)
        XCTAssertEqual(p.height, q.height, accuracy: accuracy, file: file, line: line)
    }
}
