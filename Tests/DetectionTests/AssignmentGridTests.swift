import Data
import Detection
import Foundation
import XCTest

/// Point and anchor grids (the order contract with the head's flattened outputs) and SSD box coding.
final class AssignmentGridTests: XCTestCase {
    func testPointGridCoordinatesAndLevelOrder() {
        // 64×32 input: level sizes 8×4 (stride 8), 4×2 (16), 2×1 (32) → 32 + 8 + 2 points.
        let grid = PointGrid(inputHeight: 64, inputWidth: 32)
        XCTAssertEqual(grid.levels, [FeatureLevel(stride: 8, height: 8, width: 4), FeatureLevel(stride: 16, height: 4, width: 2),
                                     FeatureLevel(stride: 32, height: 2, width: 1)])
        XCTAssertEqual(grid.count, 42)
        XCTAssertEqual(grid.levelRanges, [0..<32, 32..<40, 40..<42])
        // Row-major within a level: point 1 is the next column, point 4 the next row.
        XCTAssertEqual([grid.x[0], grid.y[0]], [4, 4])
        XCTAssertEqual([grid.x[1], grid.y[1]], [12, 4])
        XCTAssertEqual([grid.x[3], grid.y[3]], [28, 4])
        XCTAssertEqual([grid.x[4], grid.y[4]], [4, 12])
        XCTAssertEqual([grid.x[31], grid.y[31]], [28, 60])
        XCTAssertEqual([grid.x[32], grid.y[32], grid.stride[32]], [8, 8, 16])
        XCTAssertEqual([grid.x[33], grid.y[33]], [24, 8])
        XCTAssertEqual([grid.x[34], grid.y[34]], [8, 24])
        XCTAssertEqual([grid.x[41], grid.y[41], grid.stride[41]], [16, 48, 32])
        XCTAssertEqual(grid.level[31], 0)
        XCTAssertEqual(grid.level[32], 1)
        XCTAssertEqual(grid.level[41], 2)
    }

    func testPointGridCeilsNonMultipleSizesAndTakesStrideFour() {
        XCTAssertEqual(FeatureLevel(stride: 32, inputHeight: 70, inputWidth: 30), FeatureLevel(stride: 32, height: 3, width: 1))
        let grid = PointGrid(inputHeight: 512, inputWidth: 256, strides: [4, 8, 16, 32])
        XCTAssertEqual(grid.count, 128 * 64 + 64 * 32 + 32 * 16 + 16 * 8)
        XCTAssertEqual(grid.levelRanges.map(\.count), [8192, 2048, 512, 128])
        XCTAssertEqual([grid.x[0], grid.y[0], grid.stride[0]], [2, 2, 4])
    }

    func testPointsInsideABoxMatchABruteForceScan() {
        let grid = PointGrid(inputHeight: 64, inputWidth: 64)
        var visited: [Int] = []
        grid.forEachPoint(strictlyInsideX1: 0, y1: 0, x2: 16, y2: 16, margin: 0) { visited.append($0) }
        // Stride 8 centres 4 and 12 on both axes (row width 8): points 0, 1, 8, 9; stride 16 centre 8: point 64.
        XCTAssertEqual(visited, [0, 1, 8, 9, 64])
        // Edges exactly on the stride-8 centres 4 and 12 exclude them (strictly inside); the
        // stride-16 centre (8, 8) is inside.
        visited = []
        grid.forEachPoint(strictlyInsideX1: 4, y1: 4, x2: 12, y2: 12, margin: 0) { visited.append($0) }
        XCTAssertEqual(visited, [64])
        for (x1, y1, x2, y2) in [(3.0, 5.5, 40.25, 17.0), (-10, -10, 100, 100), (30, 30, 33, 34), (63.9, 0, 70, 64)] {
            var fast: [Int] = []
            grid.forEachPoint(strictlyInsideX1: x1, y1: y1, x2: x2, y2: y2, margin: 0.01) { fast.append($0) }
            let slow = (0..<grid.count).filter {
                let px = Double(grid.x[$0]), py = Double(grid.y[$0])
                return px - x1 > 0.01 && x2 - px > 0.01 && py - y1 > 0.01 && y2 - py > 0.01
            }
            XCTAssertEqual(fast, slow, "box \(x1), \(y1), \(x2), \(y2)")
        }
    }

    func testAnchorGridOrderIsLevelRowColumnAnchor() {
        let shapes = [[AnchorShape(width: 8, height: 8), AnchorShape(width: 24, height: 8)],
                      [AnchorShape(width: 16, height: 16), AnchorShape(width: 48, height: 16)]]
        let grid = AnchorGrid(inputHeight: 32, inputWidth: 32, strides: [8, 16], shapesPerLevel: shapes)
        XCTAssertEqual(grid.anchorsPerCell, 2)
        XCTAssertEqual(grid.levelRanges, [0..<32, 32..<40])
        XCTAssertEqual(grid.anchor(at: 0), AnchorBox(centerX: 4, centerY: 4, width: 8, height: 8))
        XCTAssertEqual(grid.anchor(at: 1), AnchorBox(centerX: 4, centerY: 4, width: 24, height: 8))
        XCTAssertEqual(grid.anchor(at: 2), AnchorBox(centerX: 12, centerY: 4, width: 8, height: 8))
        // Cell (1, 0) of level 0: (1·4 + 0)·2 = 8.
        XCTAssertEqual(grid.anchor(at: 8), AnchorBox(centerX: 4, centerY: 12, width: 8, height: 8))
        // Cell (1, 1) of level 1, second anchor: 32 + (1·2 + 1)·2 + 1 = 39.
        XCTAssertEqual(grid.anchor(at: 39), AnchorBox(centerX: 24, centerY: 24, width: 48, height: 16))
    }

    func testUIElementAnchorShapes() {
        let shapes = AnchorGrid.uiElementShapes(strides: [8, 16, 32]).map { $0.map { [$0.width, $0.height] } }
        XCTAssertEqual(shapes, [[[16, 16], [48, 16], [128, 16]],
                                [[48, 48], [144, 48], [384, 48]],
                                [[128, 128], [384, 128], [1024, 128]]])
        let grid = AnchorGrid.uiElements(inputHeight: 512, inputWidth: 256)
        XCTAssertEqual(grid.shapesPerLevel[2].map(\.width), [128, 256, 256])
        XCTAssertEqual(grid.shapesPerLevel[1].map(\.width), [48, 144, 256])
        XCTAssertEqual(grid.count, (64 * 32 + 32 * 16 + 16 * 8) * 3)
    }

    func testBoxCodingRoundTripWithHandComputedOffsets() {
        let coder = AnchorBoxCoder()
        let anchor = AnchorBox(centerX: 100, centerY: 50, width: 48, height: 16)
        let box = BoundingBox(x: 80, y: 45, width: 60, height: 12)  // centre (110, 51)
        let offsets = coder.encode(box, anchor: anchor)
        // dx = (110 − 100)/48/0.1, dy = (51 − 50)/16/0.1, dw = ln(60/48)/0.2, dh = ln(12/16)/0.2.
        let expected: [Float] = [2.0833333, 0.625, 1.1157178, -1.4384104]
        for c in 0..<4 { XCTAssertEqual(offsets[c], expected[c], accuracy: 1e-5) }
        let decoded = coder.decode(offsets, anchor: anchor)
        let corners: [Float] = [80, 45, 140, 57]
        for c in 0..<4 { XCTAssertEqual(decoded[c], corners[c], accuracy: 1e-4) }
    }

    func testDecodeClampsLogScales() {
        let coder = AnchorBoxCoder()
        let anchor = AnchorBox(centerX: 0, centerY: 0, width: 16, height: 16)
        // ±1000 / 0.2 far beyond log(1000/16): width 16 · 1000/16 = 1000, height 16 · 16/1000 = 0.256.
        let box = coder.decode(SIMD4(0, 0, 1000, -1000), anchor: anchor)
        XCTAssertEqual(box[2] - box[0], 1000, accuracy: 1e-2)
        XCTAssertEqual(box[3] - box[1], 0.256, accuracy: 1e-5)
        let huge = coder.decode(SIMD4(0, 0, 1e30, 1e30), anchor: anchor)
        XCTAssertTrue((0..<4).allSatisfy { huge[$0].isFinite })
        // A zero-size ground truth encodes to a finite (very negative) log-scale.
        let degenerate = coder.encode(BoundingBox(x: 0, y: 0, width: 0, height: 4), anchor: anchor)
        XCTAssertTrue((0..<4).allSatisfy { degenerate[$0].isFinite })
    }

    func testBulkDecodeMatchesOneAtATime() {
        let grid = AnchorGrid.uiElements(inputHeight: 64, inputWidth: 32)
        let offsets = (0..<(grid.count * 4)).map { Float(($0 * 37) % 23 - 11) / 10 }
        let boxes = AnchorBoxCoder().decode(offsets: offsets, anchors: grid)
        for p in [0, 5, grid.count - 1] {
            let one = AnchorBoxCoder().decode(SIMD4(offsets[4 * p], offsets[4 * p + 1], offsets[4 * p + 2], offsets[4 * p + 3]),
                                              anchor: grid.anchor(at: p))
            XCTAssertEqual(Array(boxes[(4 * p)..<(4 * p + 4)]), [one[0], one[1], one[2], one[3]])
        }
    }
}
