import Detection
import Distributed
import Evaluation
import Foundation
import Imaging
import Inference
import NN
import Tensor

/// A run trained by several processes (`mpirun -np N screenlab train`): data parallelism in
/// Horovod's and DDP's manner over a `Communicator`.
///
/// - Every rank builds the same model from the seed (checked by a fingerprint at the start)
///   and draws the same global batch order; rank r makes its B/N images of each batch.
/// - The loss normalizers (positives, box-weight sum) are summed over the ranks before the loss
///   is scaled, so each rank's loss is its share of the global batch's loss; after backward
///   the gradients are summed in rank order. N ranks × B/N thus train the model one process
///   trains with batch B, up to the order of floating-point additions.
/// - Batch norm normalizes with each rank's own B/N images (DDP's default; synchronized batch
///   norm would add two collectives per layer and step), and its running statistics are averaged
///   over the ranks after every step, so every rank holds the same weights, statistics,
///   optimizer and EMA state and rank 0's checkpoint is every rank's.
final class DataParallel: StepSynchronization {
    let communicator: Communicator
    private let model: UIDetector
    /// Gradients of the trainable parameters, then the statistics of the training-mode batch norms.
    private var flat: [Float] = []

    init(communicator: Communicator, model: UIDetector) {
        self.communicator = communicator
        self.model = model
    }

    var ranks: Int { communicator.size }
    var isRoot: Bool { communicator.isRoot }

    func sumTerms(_ terms: [(name: String, value: Float)]) throws -> [(name: String, value: Float)] {
        let sums = try communicator.sumInRankOrder(terms.map { Double($0.value) })
        return zip(terms, sums).map { ($0.name, Float($1)) }
    }

    func synchronizeAfterBackward() throws {
        let parameters = model.namedParameters().map(\.parameter).filter { !$0.isFrozen }
        let statistics = model.namedModules().compactMap { $0.module as? BatchNorm2d }.filter { !$0.usesRunningStatistics }
            .flatMap { [$0.runningMean, $0.runningVariance] }
        let count = parameters.reduce(0) { $0 + $1.value.count } + statistics.reduce(0) { $0 + $1.value.count }
        if flat.count != count { flat = [Float](repeating: 0, count: count) }
        try flat.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var offset = 0
            for parameter in parameters {
                let n = parameter.value.count
                if let gradient = parameter.gradient {
                    gradient.withUnsafeBufferPointer { (base + offset).update(from: $0.baseAddress!, count: n) }
                } else {
                    (base + offset).update(repeating: 0, count: n)
                }
                offset += n
            }
            for buffer in statistics {
                buffer.value.withUnsafeBufferPointer { (base + offset).update(from: $0.baseAddress!, count: $0.count) }
                offset += buffer.value.count
            }
            try communicator.sumInRankOrder(buffer)
            offset = 0
            for parameter in parameters {
                let n = parameter.value.count
                var gradient = parameter.gradient ?? Tensor(uninitialized: parameter.value.shape)
                gradient.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: base + offset, count: n) }
                parameter.gradient = gradient
                offset += n
            }
            let scale = 1 / Float(ranks)
            for buffer in statistics {
                buffer.value.withUnsafeMutableBufferPointer { values in
                    for i in values.indices { values[i] = base[offset + i] * scale }
                }
                offset += buffer.value.count
            }
        }
    }

    /// Stops with a message naming the rank when the ranks did not build the same run: another
    /// dataset or code on one host gives other weights, batch counts or classes.
    func checkSameStart(_ fingerprint: String) throws {
        let all = try communicator.allGather(Array(fingerprint.utf8)).map { String(decoding: $0, as: UTF8.self) }
        if let rank = all.indices.first(where: { all[$0] != all[0] }) {
            throw DistributedError(call: "start", reason: "rank \(rank) on \(communicator.hosts[rank]) built another run than rank 0 on "
                                   + "\(communicator.hosts[0]) (\(all[rank]) against \(all[0])): every host needs the same data, config and screenlab build")
        }
    }

    /// The contiguous share of `count` items (validation screens) rank r predicts.
    func share(of count: Int) -> Range<Int> {
        let chunks = RankChunks(count: count, ranks: ranks)
        return chunks.offsets[communicator.rank]..<chunks.offsets[communicator.rank] + chunks.counts[communicator.rank]
    }

    /// Every rank's predictions of its share, on every rank, with image indices into the whole split
    /// and in the order one process would list them (by image, each image's in its own order).
    func gather(_ output: DetectorPredictor.Output, shareStart: Int) throws -> DetectorPredictor.Output {
        var values: [Double] = []
        values.reserveCapacity(output.predictions.count * 7)
        for p in output.predictions {
            values += [Double(p.imageIndex + shareStart), Double(p.classIndex), p.box.x, p.box.y, p.box.width, p.box.height, p.score]
        }
        let bytes = values.withUnsafeBytes { Array($0) }
        let unreadable = output.unreadable.map { "\($0.file)\u{0}\($0.reason)" }.joined(separator: "\u{1}")
        let parts = try communicator.allGather(bytes)
        let unreadableParts = try communicator.allGather(Array(unreadable.utf8))
        var predictions: [PredictedBox] = []
        for part in parts {
            let numbers = part.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
            for i in stride(from: 0, to: numbers.count - 6, by: 7) {
                predictions.append(PredictedBox(imageIndex: Int(numbers[i]), classIndex: Int(numbers[i + 1]),
                                                box: BoundingBox(x: numbers[i + 2], y: numbers[i + 3], width: numbers[i + 4], height: numbers[i + 5]),
                                                score: numbers[i + 6]))
            }
        }
        var failures: [(file: String, reason: String)] = []
        for part in unreadableParts where !part.isEmpty {
            for entry in String(decoding: part, as: UTF8.self).split(separator: "\u{1}") {
                let fields = entry.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
                failures.append((String(fields[0]), fields.count > 1 ? String(fields[1]) : ""))
            }
        }
        return DetectorPredictor.Output(predictions: predictions, unreadable: failures)
    }
}
