/// An anchor's size in input pixels.
public struct AnchorShape: Equatable, Sendable {
    public var width: Float
    public var height: Float
    public init(width: Float, height: Float) { self.width = width; self.height = height }
}

/// One anchor: centre and size in input pixels.
public struct AnchorBox: Equatable, Sendable {
    public var centerX: Float
    public var centerY: Float
    public var width: Float
    public var height: Float
    public init(centerX: Float, centerY: Float, width: Float, height: Float) {
        self.centerX = centerX; self.centerY = centerY; self.width = width; self.height = height
    }
}

/// The anchors of the SSD-style anchored head: at every cell of every level, A anchors of the
/// level's shapes, centred on the cell centre ((j + 0.5)·s, (i + 0.5)·s).
///
/// Order — the contract with the head's flattened outputs: level, then row, then column, then
/// anchor; anchor a of cell (i, j) on level l is `levelRanges[l].lowerBound + (i·width + j)·A + a`.
/// The head is shared across levels, so every level has the same A.
public struct AnchorGrid: Equatable, Sendable {
    public let inputHeight: Int
    public let inputWidth: Int
    public let levels: [FeatureLevel]
    public let shapesPerLevel: [[AnchorShape]]
    public let anchorsPerCell: Int
    public let levelRanges: [Range<Int>]
    public let centerX: [Float]
    public let centerY: [Float]
    public let width: [Float]
    public let height: [Float]

    public var count: Int { centerX.count }

    public init(inputHeight: Int, inputWidth: Int, strides: [Int] = DetectorConfiguration.strides,
                shapesPerLevel: [[AnchorShape]]) {
        precondition(!strides.isEmpty && strides.count == shapesPerLevel.count,
                     "AnchorGrid needs one shape list per stride, got \(shapesPerLevel.count) for \(strides.count) strides")
        let anchorsPerCell = shapesPerLevel[0].count
        precondition(anchorsPerCell > 0 && shapesPerLevel.allSatisfy { $0.count == anchorsPerCell },
                     "AnchorGrid: the head is shared across levels, so every level needs the same (non-zero) number of anchors")
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.shapesPerLevel = shapesPerLevel
        self.anchorsPerCell = anchorsPerCell
        levels = strides.map { FeatureLevel(stride: $0, inputHeight: inputHeight, inputWidth: inputWidth) }
        var ranges: [Range<Int>] = []
        var cx: [Float] = [], cy: [Float] = [], w: [Float] = [], h: [Float] = []
        let total = levels.reduce(0) { $0 + $1.cellCount } * anchorsPerCell
        cx.reserveCapacity(total); cy.reserveCapacity(total); w.reserveCapacity(total); h.reserveCapacity(total)
        for (l, feature) in levels.enumerated() {
            let start = cx.count
            let s = Float(feature.stride)
            for i in 0..<feature.height {
                for j in 0..<feature.width {
                    for shape in shapesPerLevel[l] {
                        cx.append((Float(j) + 0.5) * s)
                        cy.append((Float(i) + 0.5) * s)
                        w.append(shape.width)
                        h.append(shape.height)
                    }
                }
            }
            ranges.append(start..<cx.count)
        }
        levelRanges = ranges
        centerX = cx; centerY = cy; width = w; height = h
    }

    public func anchor(at index: Int) -> AnchorBox {
        AnchorBox(centerX: centerX[index], centerY: centerY[index], width: width[index], height: height[index])
    }

    /// The UI-element anchor grid: `uiElementShapes` for these strides, widths capped at the input width.
    public static func uiElements(inputHeight: Int, inputWidth: Int,
                                  strides: [Int] = DetectorConfiguration.strides) -> AnchorGrid {
        AnchorGrid(inputHeight: inputHeight, inputWidth: inputWidth, strides: strides,
                   shapesPerLevel: uiElementShapes(strides: strides, maximumWidth: Float(inputWidth)))
    }

    /// Default anchors for UI elements: on level l (0 = finest) a base size b = (2 + l)·stride —
    /// 16, 48, 128 px at strides 8/16/32 (8, 24, 64, 160 with stride 4 added) — and per aspect
    /// ratio r (width : height) an anchor r·b wide and b high.
    ///
    /// Why these, for 256×512 inputs (a 390×844 screen is scaled by 0.61):
    /// - Height-preserving wide anchors, not SSD's area-preserving ones: a text line keeps its
    ///   font's height whatever its length, so widening at constant height follows the data;
    ///   SSD's b·√r × b/√r makes the 1:8 anchor only b/2.8 high (5.7 px at b = 16).
    /// - Ratios 1, 3, 8: squares for icons, checkboxes and pictures; 1:3 for short labels,
    ///   buttons and segments; 1:8 for text lines, text fields and bars.
    /// - b = 2·stride at stride 8 gives a 16 px square, IoU 0.89 with a 17 px icon (the median
    ///   icon side in vins-ui), where SSD's 4·stride (32 px) reaches only 0.28 — below any
    ///   matching threshold. The coarser levels grow faster than the strides (48, 128 rather
    ///   than 32, 64) because with three levels a 2·stride rule tops out at 64 px squares and
    ///   leaves containers, dialogs and pictures (100–400 px) without a matching anchor.
    /// On a set of typical input sizes (icons 10–28 px, text 8–16 px high × 20–240 wide, fields
    /// 20–36 × 120–240, containers 60–400) this keeps the best-anchor IoU ≥ 0.5 on average for
    /// every group (means 0.55–0.65, worst cases 0.32–0.43), where 4·stride area-preserving anchors give 0.36 for icons
    /// and 2·stride ones 0.26 for containers.
    /// Widths are capped at `maximumWidth` (the input width): no box is wider than the input, so
    /// the 1:8 anchor of the coarsest level (1024 px at b = 128) is useful only as a full-width
    /// bar.
    public static func uiElementShapes(strides: [Int], aspectRatios: [Float] = [1, 3, 8],
                                       maximumWidth: Float? = nil) -> [[AnchorShape]] {
        strides.enumerated().map { level, stride in
            let base = Float(2 + level) * Float(stride)
            return aspectRatios.map { ratio in
                AnchorShape(width: min(ratio * base, maximumWidth ?? .infinity), height: base)
            }
        }
    }
}
