import TestSupport
import Autograd
import NN
import Tensor
import XCTest

/// A few full-batch training steps of TinyConvNet on generated bar images, shared by the
/// resume tests: every step goes through forward, backward and the optimizer.
struct BarTraining {
    let inputs: Tensor, labels: Tensor

    init(seed: UInt64 = 3) throws {
        (inputs, labels) = try BarImages.make(count: 6, size: 12, seed: seed)
    }

    func step(_ model: TinyConvNet, _ optimizer: Optimizer) throws {
        model.train()
        _ = try TrainingStep.run(images: inputs, step: 0, forward: { try model($0) }, objective: { logits in
            let loss = try logits.binaryCrossEntropyWithLogits(targets: labels)
            return StepLoss(total: loss, terms: [("bce", loss.value.scalarValue)])
        }, optimizer: optimizer)
    }
}

func stateDictionary(_ entries: [(name: String, tensor: Tensor)]) -> [String: Tensor] {
    Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.tensor) })
}

/// Names and bit patterns of two states agree (bit patterns, so -0 ≠ 0 and NaN = NaN).
func assertBitIdentical(_ a: [(name: String, tensor: Tensor)], _ b: [(name: String, tensor: Tensor)], _ what: String,
                        file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.map(\.name), b.map(\.name), what, file: file, line: line)
    for (x, y) in zip(a, b) {
        XCTAssertEqual(x.tensor.shape, y.tensor.shape, "\(what): \(x.name)", file: file, line: line)
        XCTAssertTrue(x.tensor.values.map(\.bitPattern) == y.tensor.values.map(\.bitPattern), "\(what): \(x.name) differs", file: file, line: line)
    }
}
