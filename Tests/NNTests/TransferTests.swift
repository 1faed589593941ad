import TestSupport
import Autograd
@testable import NN
import Tensor
import XCTest

final class TransferTests: XCTestCase {
    /// A checkpoint of the same architecture with another class count: everything but the
    /// classifier loads; the classifier is reported and keeps its values.
    func testOtherClassCountSkipsTheMismatchedHead() throws {
        let source = stateDictionary(try TinyConvNet(width: 4, outputs: 3, seed: 1).stateTensors())
        let model = try TinyConvNet(width: 4, outputs: 1, seed: 2)
        let before = model.stateTensors()
        XCTAssertThrowsError(try model.load(transferringFrom: source)) {
            XCTAssertEqual($0 as? ModuleError, .shapeMismatch(name: "classifier.weight", expected: [1, 8], found: [3, 8]))
        }
        assertBitIdentical(model.stateTensors(), before, "a refused transfer changes nothing")

        let report = try model.load(transferringFrom: source, skipMismatched: true)
        XCTAssertEqual(report.shapeMismatched, [.init(name: "classifier.weight", modelShape: [1, 8], sourceShape: [3, 8]),
                                                .init(name: "classifier.bias", modelShape: [1], sourceShape: [3])])
        XCTAssertEqual(report.missing, [])
        XCTAssertEqual(report.unexpected, [])
        XCTAssertEqual(Set(report.loaded), Set(before.map(\.name)).subtracting(["classifier.weight", "classifier.bias"]))
        XCTAssertTrue(report.loaded.contains("block2.bn.running_var"), "buffers transfer too")
        XCTAssertEqual(model.block1.conv.weight.value.values, source["block1.weight"]?.values)
        XCTAssertEqual(model.classifier.weight.value.values, before.first { $0.name == "classifier.weight" }?.tensor.values)
        XCTAssertTrue(report.description.contains("classifier.weight (model [1, 8], source [3, 8])"), report.description)
    }

    /// Another model's checkpoint whose backbone is nested one level deeper: rename, take only it.
    func testRenamedPrefixAndSelection() throws {
        var source: [String: Tensor] = [:]
        for (name, tensor) in try TinyConvNet(width: 4, seed: 1).stateTensors() { source["model.\(name)"] = tensor }
        source["model.block1.extra"] = try Tensor(zeros: [2])
        source.removeValue(forKey: "model.block1.bn.running_mean")
        let model = try TinyConvNet(width: 4, seed: 2)
        let classifierBefore = model.classifier.weight.value.values
        let report = try model.load(transferringFrom: source, renamingPrefixes: ["model.": ""], only: ["block1"])
        XCTAssertEqual(report.loaded, ["block1.weight", "block1.bn.weight", "block1.bn.bias", "block1.bn.running_var"])
        XCTAssertEqual(report.missing, ["block1.bn.running_mean"])
        XCTAssertEqual(report.unexpected, ["block1.extra"])
        XCTAssertEqual(model.block1.conv.weight.value.values, source["model.block1.weight"]?.values)
        XCTAssertEqual(model.classifier.weight.value.values, classifierBefore, "outside the selection: untouched")
    }

    func testRenamingFollowsDottedBoundariesAndTheLongestPrefix() {
        let renames = ["model": "", "model.backbone": "backbone", "head.": "detector.head"]
        XCTAssertEqual(Module.rename("model.backbone.stem.weight", prefixes: renames), "backbone.stem.weight")
        XCTAssertEqual(Module.rename("model.fpn.weight", prefixes: renames), "fpn.weight")
        XCTAssertEqual(Module.rename("model2.fpn.weight", prefixes: renames), "model2.fpn.weight", "not on a dotted boundary")
        XCTAssertEqual(Module.rename("head.bias", prefixes: renames), "detector.head.bias")
        XCTAssertEqual(Module.rename("model.backbone", prefixes: renames), "backbone")
        XCTAssertEqual(Module.rename("stem.weight", prefixes: ["": "backbone"]), "backbone.stem.weight")
    }

    func testTransfersThatCannotBeRightThrow() throws {
        let model = try TinyConvNet(width: 4)
        let tensors = stateDictionary(try TinyConvNet(width: 4, seed: 1).stateTensors())
        XCTAssertThrowsError(try model.load(transferringFrom: tensors, renamingPrefixes: ["": "model"])) { error in
            XCTAssertTrue("\(error)".contains("no tensor of the source fits") && "\(error)".contains("block1.weight"), "\(error)")
        }
        let duplicated = ["a.weight": tensors["block1.weight"]!, "b.weight": tensors["block1.weight"]!]
        XCTAssertThrowsError(try model.load(transferringFrom: duplicated, renamingPrefixes: ["a": "block1", "b": "block1"])) {
            XCTAssertEqual($0 as? ModuleError, .ambiguousRename(name: "block1.weight", sources: ["a.weight", "b.weight"]))
        }
    }
}
