import Data

/// How ATSS treats a dataset's boxes (`screenlab data assignment`): per class and size bucket
/// (√area at the model input), how many boxes the adaptive threshold leaves without a positive
/// (the rescue then gives them exactly one), how many positives the rest get, and how many
/// positives sit on a prior whose box sides lie beyond the head's reach (their distance targets
/// are clamped at bins − 1 strides, so the prior learns too small a box). Run it with the
/// paper's rule and with `ATSSAssigner.Rules` to see what a rule changes before training.
public struct AssignmentStatistics: Equatable {
    public struct Cell: Equatable {
        public var boxes = 0
        /// Boxes with no positive before the rescue pass.
        public var withoutPositive = 0
        /// Positives after the rescue pass.
        public var positives = 0
        /// Positives whose box reaches beyond the head (anchor-free only).
        public var beyondReach = 0
    }

    /// Upper edges of the size buckets on √area in input pixels; the last bucket is open.
    public let bucketEdges: [Double]
    /// [class][bucket]
    public private(set) var cells: [[Cell]]

    /// `images`: each image's boxes in model-input pixels (after the letterbox).
    /// `minimumPositives` and `withinReach`: the experiment's `assigner` keys.
    public init(images: [[Annotation]], classCount: Int, configuration: UIDetectorConfiguration, minimumPositives: Int, withinReach: Bool,
                smallestWins: Bool = false, bucketEdges: [Double]) throws {
        let decoder = try HeadDecoder(configuration: configuration)
        let plain = ATSSAssigner(head: decoder, minimumPositives: minimumPositives, withinReach: withinReach, smallestWins: smallestWins,
                                 rescuesUnmatchedGroundTruths: false)
        let rescued = ATSSAssigner(head: decoder, minimumPositives: minimumPositives, withinReach: withinReach, smallestWins: smallestWins)
        let priors = rescued.priors, reach = ATSSAssigner.reach(of: decoder)
        self.bucketEdges = bucketEdges
        var cells = [[Cell]](repeating: [Cell](repeating: Cell(), count: bucketEdges.count + 1), count: classCount)
        func bucket(_ box: BoundingBox) -> Int {
            let side = (box.width * box.height).squareRoot()
            return bucketEdges.firstIndex { side < $0 } ?? bucketEdges.count
        }
        for truths in images where !truths.isEmpty {
            let before = plain.assign(truths).targets, after = rescued.assign(truths).targets
            var positivesBefore = [Int](repeating: 0, count: truths.count)
            for p in before.positiveIndices { positivesBefore[before.groundTruthIndex[p]] += 1 }
            for (g, truth) in truths.enumerated() where (0..<classCount).contains(truth.classIndex) {
                let b = bucket(truth.box)
                cells[truth.classIndex][b].boxes += 1
                if positivesBefore[g] == 0 { cells[truth.classIndex][b].withoutPositive += 1 }
            }
            for p in after.positiveIndices {
                let truth = truths[after.groundTruthIndex[p]]
                guard (0..<classCount).contains(truth.classIndex) else { continue }
                let b = bucket(truth.box)
                cells[truth.classIndex][b].positives += 1
                if let reach {
                    let x = Double(priors.centerX[p]), y = Double(priors.centerY[p]), box = truth.box
                    if max(x - box.minX, box.maxX - x, y - box.minY, box.maxY - y) > Double(reach[p]) { cells[truth.classIndex][b].beyondReach += 1 }
                }
            }
        }
        self.cells = cells
    }

    /// A Markdown table: per class and bucket "boxes · no positive % · positives per box · beyond reach %".
    public func table(classes: [String]) -> String {
        func percent(_ part: Int, _ whole: Int) -> String { whole == 0 ? "—" : String(format: "%.0f%%", 100 * Double(part) / Double(whole)) }
        var names: [String] = []
        var lower = 0.0
        for edge in bucketEdges { names.append("\(Int(lower))–\(Int(edge)) px"); lower = edge }
        names.append("≥ \(Int(lower)) px")
        var out = "| UI type | " + names.joined(separator: " | ") + " |\n|---|" + String(repeating: "---:|", count: names.count) + "\n"
        for (c, row) in cells.enumerated() where row.contains(where: { $0.boxes > 0 }) {
            out += "| \(classes[c]) | " + row.map { cell in
                cell.boxes == 0 ? "—" : "\(cell.boxes) · \(percent(cell.withoutPositive, cell.boxes)) · "
                    + String(format: "%.1f", Double(cell.positives) / Double(cell.boxes)) + " · \(percent(cell.beyondReach, cell.positives))"
            }.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
