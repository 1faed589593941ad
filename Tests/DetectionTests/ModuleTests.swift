import TestSupport
import Autograd
import Detection
import NN
import Support
import Tensor
import XCTest

final class ModuleTests: XCTestCase {
    func testReferenceDetectorNamesAndSizeMatchThePyTorchPeer() throws {
        let model = try ReferenceDetector()
        let names = model.namedParameters().map(\.name)
        XCTAssertTrue(names.contains("backbone.stage4.2.pointwise.weight"), "\(names.prefix(12))")
        XCTAssertTrue(names.contains("backbone.stem.bn.weight"))
        XCTAssertTrue(names.contains("fpn.lateral.2.bias"))
        XCTAssertTrue(names.contains("head.conv2.weight"))
        XCTAssertTrue(model.namedBuffers().map(\.name).contains("backbone.stage5.1.depthwise.bn.running_var"))
        // detector.py: 1,053,267 parameters (counted from its layer list), 10,944 BN buffer values.
        XCTAssertEqual(model.parameterCount(), 1_053_267)
        XCTAssertEqual(model.namedBuffers().reduce(0) { $0 + $1.buffer.value.count }, 10_944)
        XCTAssertEqual(Set(names).count, names.count, "dotted names are unique")
    }

    func testDetectorOutputShapes() throws {
        let config = DetectorConfiguration(inputHeight: 64, inputWidth: 32)
        let model = try ReferenceDetector(configuration: config)
        model.eval()
        let outputs = try model(Tape.noGradient().constant(try Tensor(zeros: [2, 3, 64, 32])))
        XCTAssertEqual(outputs.map(\.shape), [[2, 51, 8, 4], [2, 51, 4, 2], [2, 51, 2, 1]])
    }

    func testSameSeedSameWeightsDifferentSeedDifferent() throws {
        let a = try ReferenceDetector(seed: 3).stateTensors(), b = try ReferenceDetector(seed: 3).stateTensors(), c = try ReferenceDetector(seed: 4).stateTensors()
        XCTAssertEqual(a.map { $0.tensor.values }, b.map { $0.tensor.values })
        XCTAssertNotEqual(a[0].tensor.values, c[0].tensor.values)
    }

    func testLoadStateChecksNamesAndShapes() throws {
        let model = try TinyConvNet()
        var state = Dictionary(uniqueKeysWithValues: model.stateTensors().map { ($0.name, $0.tensor) })
        XCTAssertNoThrow(try model.load(state: state))
        state["classifier.weight"] = try Tensor(zeros: [2, 16])
        XCTAssertThrowsError(try model.load(state: state)) { XCTAssertEqual($0 as? ModuleError, .shapeMismatch(name: "classifier.weight", expected: [1, 16], found: [2, 16])) }
        state["classifier.weight"] = nil
        XCTAssertThrowsError(try model.load(state: state)) { XCTAssertEqual($0 as? ModuleError, .missingTensor("classifier.weight")) }
        state["classifier.weight"] = model.classifier.weight.value
        state["extra.weight"] = try Tensor(zeros: [1])
        XCTAssertThrowsError(try model.load(state: state)) { XCTAssertEqual($0 as? ModuleError, .unexpectedTensor("extra.weight")) }
        XCTAssertNoThrow(try model.load(state: state, strict: false))
    }

    func testPrefixMatchingRespectsDots() throws {
        XCTAssertTrue(Module.name("backbone.stage4.2.weight", isUnder: "backbone.stage4"))
        XCTAssertFalse(Module.name("backbone.stage4.20.weight", isUnder: "backbone.stage4.2"))
        XCTAssertTrue(Module.name("anything", isUnder: ""))
    }
}
