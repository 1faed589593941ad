import XCTest
@testable import Imaging

/// The vectorized resampler (4-lane gathers, taps padded to one count, rows blended in registers,
/// truncation through float bits) against the plain per-channel filter it replaced: the same
/// bytes, so every augmented training image and every trained weight stays bit for bit the same.
final class ResampleEquivalenceTests: XCTestCase {
    private func noise(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var random = SplitMix(seed: seed)
        return RGBImage(width: width, height: height, pixels: (0..<width * height * 3).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    /// The scalar filter: per output row, blend its source rows into floats (first tap written,
    /// the others added), then per pixel and channel 0.5 + Σ w · p over the column taps, truncated.
    private func reference(_ image: RGBImage, width: Int, height: Int, resampling: Resampling) -> RGBImage {
        let columns = ResampleTable(source: image.width, target: width, resampling: resampling)
        let rows = ResampleTable(source: image.height, target: height, resampling: resampling)
        let rowBytes = image.width * 3
        var output = [UInt8](repeating: 0, count: width * height * 3)
        var blended = [Float](repeating: 0, count: rowBytes)
        for y in 0..<height {
            for k in rows.starts[y]..<rows.starts[y + 1] {
                let w = rows.weights[k], base = rows.indices[k] * rowBytes
                for j in 0..<rowBytes {
                    let term = w * Float(image.pixels[base + j])
                    blended[j] = k == rows.starts[y] ? term : term + blended[j]
                }
            }
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum: Float = 0.5
                    for t in columns.starts[x]..<columns.starts[x + 1] {
                        sum += columns.weights[t] * blended[columns.indices[t] * 3 + channel]
                    }
                    output[(y * width + x) * 3 + channel] = UInt8(sum)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: output)
    }

    /// How many bytes differ and where the first is: a rounding difference touches a few bytes in
    /// a million (a sum landing on the other side of an integer), so the images must be large.
    private func assertSameBytes(_ actual: RGBImage, _ expected: RGBImage, _ label: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.width, expected.width, label, file: file, line: line)
        XCTAssertEqual(actual.height, expected.height, label, file: file, line: line)
        let differing = zip(actual.pixels, expected.pixels).enumerated().filter { $0.element.0 != $0.element.1 }
        if let first = differing.first {
            let pixel = first.offset / 3
            XCTFail("\(label): \(differing.count) bytes differ, the first at x \(pixel % actual.width), y \(pixel / actual.width), "
                    + "channel \(first.offset % 3): \(first.element.0) against \(first.element.1)", file: file, line: line)
        }
    }

    func testResizedMatchesTheScalarFilterByteForByte() {
        // The loader's shrink of a whole vins-ui screen, 385×640 → 256×426 (alternating 2- and 3-tap
        // columns; three taps added in reverse order change 1 of its 327,168 bytes), and turned; shrinks
        // by 2.5×, 3.3× and 7×, growth, one axis only, widths below the eight-byte vector, 1-pixel outputs.
        let cases: [(Int, Int, Int, Int)] = [(385, 640, 256, 426), (640, 385, 256, 154), (100, 37, 40, 15), (33, 50, 10, 15), (70, 9, 10, 3),
                                             (13, 9, 20, 17), (5, 4, 11, 7), (64, 8, 64, 3), (1, 1, 3, 2), (9, 7, 1, 1), (2, 3, 1, 5)]
        for (index, (sw, sh, w, h)) in cases.enumerated() {
            let image = noise(width: sw, height: sh, seed: UInt64(index + 1))
            for resampling in Resampling.allCases {
                assertSameBytes(image.resized(width: w, height: h, resampling: resampling),
                                reference(image, width: w, height: h, resampling: resampling),
                                "\(sw)×\(sh) → \(w)×\(h) \(resampling)")
            }
        }
    }

    func testDrawResampledIsTheCroppedResizePastedAndClipped() throws {
        let source = noise(width: 61, height: 47, seed: 9)
        // (source rectangle, output size, position on a 50×40 canvas): inside, sticking out on every
        // side, covering the canvas, growing, and one wholly outside (draws nothing).
        let cases: [((Int, Int, Int, Int), (Int, Int), (Int, Int))] = [
            ((3, 5, 40, 30), (25, 19), (4, 6)), ((0, 0, 61, 47), (30, 23), (-7, -5)), ((10, 2, 51, 45), (33, 29), (30, 20)),
            ((5, 5, 20, 20), (70, 60), (-10, -12)), ((1, 1, 9, 7), (17, 13), (-3, 30)), ((0, 0, 61, 47), (20, 20), (50, 3)),
        ]
        for ((sx, sy, sw, sh), (w, h), (x, y)) in cases {
            for resampling in Resampling.allCases {
                var drawn = RGBImage(width: 50, height: 40, fill: RGB(1, 2, 3))
                drawn.drawResampled(source, sourceX: sx, sourceY: sy, sourceWidth: sw, sourceHeight: sh,
                                    width: w, height: h, atX: x, y: y, resampling: resampling)
                let patch = try source.cropped(x: sx, y: sy, width: sw, height: sh).resized(width: w, height: h, resampling: resampling)
                var expected = RGBImage(width: 50, height: 40, fill: RGB(1, 2, 3))
                for py in 0..<h where (0..<40).contains(y + py) {
                    for px in 0..<w where (0..<50).contains(x + px) { expected[x + px, y + py] = patch[px, py] }
                }
                assertSameBytes(drawn, expected, "\(sw)×\(sh) at (\(sx), \(sy)) → \(w)×\(h) at (\(x), \(y)) \(resampling)")
            }
        }
    }

    func testDrawResampledWritesOnlyTheVisibleWindow() {
        let source = noise(width: 61, height: 47, seed: 11)
        var whole = RGBImage(width: 50, height: 40, fill: RGB(1, 2, 3))
        whole.drawResampled(source, sourceX: 2, sourceY: 3, sourceWidth: 55, sourceHeight: 40, width: 30, height: 25,
                            atX: 10, y: 8, resampling: .area)
        // Inside the drawing, across its edges, wholly left of / right of / below it, and sticking out of the image.
        for (columns, rows) in [(15..<30, 10..<20), (0..<12, 30..<40), (0..<9, 0..<40), (41..<50, 0..<40), (0..<50, 34..<40), (-5..<60, -3..<9)] {
            var drawn = RGBImage(width: 50, height: 40, fill: RGB(1, 2, 3))
            drawn.drawResampled(source, sourceX: 2, sourceY: 3, sourceWidth: 55, sourceHeight: 40, width: 30, height: 25,
                                atX: 10, y: 8, resampling: .area, visibleColumns: columns, visibleRows: rows)
            var expected = RGBImage(width: 50, height: 40, fill: RGB(1, 2, 3))
            for y in 0..<40 where rows.contains(y) { for x in 0..<50 where columns.contains(x) { expected[x, y] = whole[x, y] } }
            assertSameBytes(drawn, expected, "window \(columns) × \(rows)")
        }
    }

    func testFillWritesEveryPixel() {
        for (fill, width, height) in [(RGB(114, 114, 114), 7, 5), (RGB(200, 10, 77), 13, 11), (RGB(1, 2, 3), 1, 1), (RGB(9, 8, 7), 0, 4)] {
            let image = RGBImage(width: width, height: height, fill: fill)
            XCTAssertEqual(image.pixels.count, width * height * 3)
            XCTAssertTrue(pixelRows(image).joined().allSatisfy { $0 == fill }, "\(fill) \(width)×\(height)")
        }
    }
}
