import Data
import Detection
import Evaluation
import Foundation
import Imaging
import Kernels
import Support
import Tensor

/// Detections for a list of screens, exactly as training's validation, `evaluate --weights` and
/// `predict` make them: each image letterboxed to the model input, one eval-mode forward pass
/// per batch, the head decoded, post-processed and mapped back to the
/// image's own pixels. The forward pass is the fused inference model (`FusedDetector`: batch
/// norm folded, activations fused, buffers planned once), folded from `model`'s weights at the
/// start of every `predict` call — so the trainer's EMA weights, swapped in just before, are
/// the ones that run. Unreadable images are listed and skipped (they then count as screens with
/// missed ground truth).
public struct DetectorPredictor {
    public let model: UIDetector
    public let decoder: HeadDecoder
    public let postprocessor: DetectionPostprocessor
    public let normalization: PixelNormalization
    public let batchSize: Int

    public init(model: UIDetector, postprocessor: DetectionPostprocessor, normalization: PixelNormalization, batchSize: Int) throws {
        self.model = model
        decoder = try HeadDecoder(configuration: model.configuration)
        self.postprocessor = postprocessor
        self.normalization = normalization
        self.batchSize = max(1, batchSize)
    }

    public struct Output {
        /// `imageIndex` is the position in the `samples` given.
        public var predictions: [PredictedBox]
        public var unreadable: [(file: String, reason: String)]

        public init(predictions: [PredictedBox], unreadable: [(file: String, reason: String)]) {
            self.predictions = predictions
            self.unreadable = unreadable
        }
    }

    public func predict(_ samples: [Sample], imageURL: (Sample) -> URL, label: String, showProgress: Bool) throws -> Output {
        let progress = ProgressLine(label, total: samples.count, unit: "images", enabled: showProgress)
        let output = try predict(count: samples.count, progress: progress) { position in
            let url = imageURL(samples[position])
            do { return .success(try ImageIO.read(url)) } catch { return .failure(UnreadableImage(file: url.path, reason: "\(error)")) }
        }
        progress.finish()
        return output
    }

    /// Detections on images already in memory (rendered screens); `imageIndex` is the position in `images`.
    public func predict(images: [RGBImage]) throws -> [PredictedBox] {
        try predict(count: images.count, progress: nil) { .success(images[$0]) }.predictions
    }

    struct UnreadableImage: Error { let file: String, reason: String }

    /// Letterboxes the images `image(0..<count)` gives, batch by batch, and runs the fused model.
    func predict(count: Int, progress: ProgressLine?, image load: (Int) -> Result<RGBImage, UnreadableImage>) throws -> Output {
        let width = model.configuration.inputWidth, height = model.configuration.inputHeight
        // Folding reads the weights as they are now (about a millisecond): never a stale copy.
        let fused = try FusedDetector(model)
        var output = Output(predictions: [], unreadable: [])
        var start = 0
        while start < count {
            let end = min(count, start + batchSize)
            // The batch's images read and letterboxed on the workers (one at a time on the calling
            // thread they left a core idle: the quickstart's validation ran 1.1–1.2× slower), then
            // placed in order, so the batch is the same whatever the thread count.
            let prepared = prepare(start..<end, width: width, height: height, load: load)
            var slots: [(position: Int, mapping: InputToSourceMapping)] = []
            var images = Tensor(uninitialized: [end - start, 3, height, width])
            for (position, result) in zip(start..<end, prepared) {
                switch result {
                case let .success((boxed, mapping)):
                    images.withUnsafeMutableBufferPointer {
                        boxed.writeCHW(into: $0.baseAddress! + slots.count * 3 * height * width, normalization: normalization)
                    }
                    slots.append((position, mapping))
                case let .failure(problem):
                    output.unreadable.append((problem.file, problem.reason))
                }
            }
            if !slots.isEmpty {
                let batch = slots.count < end - start ? try images.prefixBatch(slots.count) : images
                let flat = try fused(batch)
                for (slot, decoded) in decoder.decode(flat, images: slots.count).enumerated() {
                    let (position, mapping) = slots[slot]
                    for box in postprocessor.detections(classProbabilities: decoded.probabilities, boxes: decoded.boxes, mapping: mapping) {
                        output.predictions.append(PredictedBox(imageIndex: position, classIndex: box.classIndex, box: box.box, score: box.score))
                    }
                }
            }
            progress?.advance(by: end - start)
            start = end
        }
        return output
    }
}

extension DetectorPredictor {
    /// `load(position)` letterboxed to the model input, with the map back to its pixels, for each
    /// position of `range`, in order; the positions are split across `Parallel`'s workers.
    func prepare(_ range: Range<Int>, width: Int, height: Int, load: (Int) -> Result<RGBImage, UnreadableImage>)
        -> [Result<(RGBImage, InputToSourceMapping), UnreadableImage>] {
        var prepared = [Result<(RGBImage, InputToSourceMapping), UnreadableImage>?](repeating: nil, count: range.count)
        prepared.withUnsafeMutableBufferPointer { slots in
            let slots = slots
            Parallel.forEach(range.count) { index in
                slots[index] = load(range.lowerBound + index).map { image in
                    let (boxed, letterbox) = image.letterboxed(to: width, height)
                    return (boxed, InputToSourceMapping(sourceWidth: image.width, sourceHeight: image.height,
                                                        resizedWidth: letterbox.resizedWidth, resizedHeight: letterbox.resizedHeight,
                                                        padLeft: letterbox.padLeft, padTop: letterbox.padTop))
                }
            }
        }
        return prepared.map { $0! }
    }
}

extension Tensor {
    /// The first `count` images of an [N, …] batch (a copy).
    func prefixBatch(_ count: Int) throws -> Tensor {
        let per = self.count / shape[0]
        var out = Tensor(uninitialized: [count] + shape.dropFirst())
        out.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: pointer, count: count * per) }
        return out
    }
}
