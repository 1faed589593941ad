import Foundation

/// `screenlab data stats`: what is in a dataset, per split: class counts, boxes per image, box
/// sizes and aspect ratios (the numbers that decide anchor sizes, sampling and thresholds).
public struct DatasetStats {
    public struct SplitStats: Equatable {
        public var name: String
        public var imageCount: Int
        public var boxesPerClass: [Int]
        /// Images holding at least one box of the class.
        public var imagesPerClass: [Int]
        public var boxesPerImage: [Int]

        public var boxCount: Int { boxesPerClass.reduce(0, +) }
        public var emptyImageCount: Int { boxesPerImage.filter { $0 == 0 }.count }
    }

    /// Per-class box shape summary over the whole dataset.
    public struct ClassShape: Equatable {
        public var boxCount: Int
        /// Median √(width·height) in pixels.
        public var medianSide: Double
        /// Median √(box area / image area).
        public var medianRelativeSide: Double
        /// Median width / height.
        public var medianAspect: Double
    }

    public var classes: [String]
    /// Each declared split in conventional order, then "all" (every sample once).
    public var splits: [SplitStats]
    public var shapes: [ClassShape?]
    /// √(width·height) in pixels of every positive-area box (all samples).
    public var boxSides: [Double]
    /// width / height of every positive-area box.
    public var aspects: [Double]

    public static func compute(_ dataset: Dataset) -> DatasetStats {
        var splits = dataset.orderedSplitNames.map { name in
            splitStats(name: name, samples: dataset.splits[name]!.map { dataset.samples[$0] }, classCount: dataset.classes.count)
        }
        splits.append(splitStats(name: "all", samples: dataset.samples, classCount: dataset.classes.count))
        var sides = [[Double]](repeating: [], count: dataset.classes.count)
        var relative = sides, aspects = sides
        for sample in dataset.samples {
            let imageArea = Double(sample.width) * Double(sample.height)  // no Int overflow, whatever a file declares
            for annotation in sample.annotations where annotation.box.width > 0 && annotation.box.height > 0 {
                let c = annotation.classIndex
                sides[c].append(annotation.box.area.squareRoot())
                relative[c].append(imageArea > 0 ? (annotation.box.area / imageArea).squareRoot() : 0)
                aspects[c].append(annotation.box.width / annotation.box.height)
            }
        }
        let shapes: [ClassShape?] = dataset.classes.indices.map { c in
            sides[c].isEmpty ? nil : ClassShape(boxCount: sides[c].count, medianSide: median(sides[c]),
                                                medianRelativeSide: median(relative[c]), medianAspect: median(aspects[c]))
        }
        return DatasetStats(classes: dataset.classes, splits: splits, shapes: shapes, boxSides: sides.flatMap { $0 },
                            aspects: aspects.flatMap { $0 })
    }

    static func splitStats(name: String, samples: [Sample], classCount: Int) -> SplitStats {
        var boxes = [Int](repeating: 0, count: classCount), images = boxes
        for sample in samples {
            var present = Set<Int>()
            for annotation in sample.annotations {
                boxes[annotation.classIndex] += 1
                present.insert(annotation.classIndex)
            }
            for c in present { images[c] += 1 }
        }
        return SplitStats(name: name, imageCount: samples.count, boxesPerClass: boxes, imagesPerClass: images,
                          boxesPerImage: samples.map(\.annotations.count))
    }

    /// Middle value (mean of the two middle values for an even count); 0 for no values.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The value below which `fraction` of the values lie (nearest rank).
    public static func percentile(_ values: [Int], _ fraction: Double) -> Int {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
