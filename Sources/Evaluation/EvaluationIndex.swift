import Data

/// Flat, cache-friendly copies of ground truth and detections built once per evaluation:
/// ground truth grouped per image and class (original annotation order kept), detections
/// sorted once per class by score. Every matcher works on these arrays.
struct EvaluationIndex {
    let classCount: Int
    let imageCount: Int
    // Ground truth: boxes as corners, grouped by (image, class); `gtRange(image, class)`.
    let gtMinX: [Double], gtMinY: [Double], gtMaxX: [Double], gtMaxY: [Double], gtArea: [Double]
    let gtClass: [Int]
    private let gtOffsets: [Int]
    /// Ground truth per image in annotation order (class-agnostic matching), as indices into the flat arrays.
    let gtByImage: [[Int]]
    let gtCount: [Int]
    // Detections kept after the per-image-and-class cap, sorted by (class, score desc, image rank, input order).
    let det: [PredictedBox]
    /// det[classStart[c] ..< classStart[c + 1]] are the detections of class c.
    let classStart: [Int]
    /// Position of det[d] among the kept detections of its image and class (0 = best scored), in
    /// the order pycocotools sorts one image's detections (score desc, stable), for maxDets cuts.
    let detImageRank: [Int32]

    init(samples: [Sample], classCount: Int, predictions: [PredictedBox], maxDetections: Int?) {
        self.classCount = classCount
        imageCount = samples.count
        var minX: [Double] = [], minY: [Double] = [], maxX: [Double] = [], maxY: [Double] = [], area: [Double] = []
        var classes: [Int] = []
        var offsets = [Int](repeating: 0, count: samples.count * classCount + 1)
        var byImage: [[Int]] = []
        byImage.reserveCapacity(samples.count)
        var counts = [Int](repeating: 0, count: classCount)
        var flatIndexOfAnnotation: [Int] = []
        for (image, sample) in samples.enumerated() {
            // Stable grouping by class keeps each class's annotation order (pycocotools matches in that order).
            let order = sample.annotations.indices.filter { (0..<classCount).contains(sample.annotations[$0].classIndex) }
                .sorted { (sample.annotations[$0].classIndex, $0) < (sample.annotations[$1].classIndex, $1) }
            flatIndexOfAnnotation = [Int](repeating: -1, count: sample.annotations.count)
            for a in order {
                let annotation = sample.annotations[a]
                flatIndexOfAnnotation[a] = minX.count
                minX.append(annotation.box.minX); minY.append(annotation.box.minY)
                maxX.append(annotation.box.maxX); maxY.append(annotation.box.maxY)
                area.append(annotation.box.width * annotation.box.height)
                classes.append(annotation.classIndex)
                counts[annotation.classIndex] += 1
                offsets[image * classCount + annotation.classIndex + 1] += 1
            }
            byImage.append(flatIndexOfAnnotation.filter { $0 >= 0 })
        }
        for i in 1..<offsets.count { offsets[i] += offsets[i - 1] }
        gtMinX = minX; gtMinY = minY; gtMaxX = maxX; gtMaxY = maxY; gtArea = area; gtClass = classes
        gtOffsets = offsets; gtByImage = byImage; gtCount = counts

        let rank = Self.imageRanks(samples)
        let sorted = predictions.indices.sorted { a, b in
            let p = predictions[a], q = predictions[b]
            if p.classIndex != q.classIndex { return p.classIndex < q.classIndex }
            if p.score != q.score { return p.score > q.score }
            if p.imageIndex != q.imageIndex { return rank[p.imageIndex] < rank[q.imageIndex] }
            return a < b
        }
        var kept: [PredictedBox] = []
        kept.reserveCapacity(sorted.count)
        var imageRank: [Int32] = []
        imageRank.reserveCapacity(sorted.count)
        var starts = [Int](repeating: 0, count: classCount + 1)
        var perImage = [Int](repeating: 0, count: samples.count)
        var currentClass = -1
        var touched: [Int] = []
        for i in sorted {
            let p = predictions[i]
            if p.classIndex != currentClass {
                for image in touched { perImage[image] = 0 }
                touched.removeAll(keepingCapacity: true)
                currentClass = p.classIndex
            }
            if perImage[p.imageIndex] == 0 { touched.append(p.imageIndex) }
            perImage[p.imageIndex] += 1
            if let cap = maxDetections, perImage[p.imageIndex] > cap { continue }
            imageRank.append(Int32(clamping: perImage[p.imageIndex] - 1))
            kept.append(p)
            starts[p.classIndex + 1] += 1
        }
        for c in 0..<classCount { starts[c + 1] += starts[c] }
        det = kept
        classStart = starts
        detImageRank = imageRank
    }

    /// Position of each image in the order score ties across images are broken: ascending COCO
    /// image id (pycocotools accumulates over sorted imgIds, whatever the file's order), then
    /// dataset order for images without an id.
    static func imageRanks(_ samples: [Sample]) -> [Int] {
        let order = samples.indices.sorted { (samples[$0].cocoImageID ?? Int.max, $0) < (samples[$1].cocoImageID ?? Int.max, $1) }
        var rank = [Int](repeating: 0, count: samples.count)
        for (position, image) in order.enumerated() { rank[image] = position }
        return rank
    }

    func gtRange(image: Int, classIndex: Int) -> Range<Int> {
        let key = image * classCount + classIndex
        return gtOffsets[key]..<gtOffsets[key + 1]
    }

    /// Same arithmetic, in the same order, as pycocotools' bbIou (maskApi.c), so ties and
    /// threshold crossings come out identical.
    @inline(__always)
    func iou(_ box: BoundingBox, boxArea: Double, gt g: Int) -> Double {
        let w = min(box.x + box.width, gtMaxX[g]) - max(box.x, gtMinX[g])
        if w <= 0 { return 0 }
        let h = min(box.y + box.height, gtMaxY[g]) - max(box.y, gtMinY[g])
        if h <= 0 { return 0 }
        let intersection = w * h
        return intersection / (boxArea + gtArea[g] - intersection)
    }
}
