import Foundation
import SwiftProtobuf

/// A tensor dimension in a graph input or output: a number, or a name ONNX Runtime binds at
/// run time (the batch).
public enum ONNXDimension: Equatable, Sendable {
    case fixed(Int)
    case symbolic(String)
}

/// Appends nodes and initializers to an `Onnx_GraphProto`, keeping every value name unique
/// (ONNX requires single assignment: two nodes writing one name make an invalid model).
struct ONNXGraphBuilder {
    private(set) var graph = Onnx_GraphProto()
    private var usedNames: Set<String> = []
    private var scalars: [Float: String] = [:]

    init(name: String) {
        graph.name = name
    }

    /// `base`, or `base_1`, `base_2`… when taken; the result is reserved.
    mutating func uniqueName(_ base: String) -> String {
        var name = base, suffix = 0
        while usedNames.contains(name) {
            suffix += 1
            name = "\(base)_\(suffix)"
        }
        usedNames.insert(name)
        return name
    }

    /// A float32 constant, stored as little-endian raw bytes (what ONNX Runtime reads fastest).
    mutating func initializer(_ base: String, floats: [Float], shape: [Int]) -> String {
        precondition(shape.reduce(1, *) == floats.count, "initializer \(base): \(floats.count) values for shape \(shape)")
        var tensor = Onnx_TensorProto()
        tensor.name = uniqueName(base)
        tensor.dataType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        tensor.dims = shape.map(Int64.init)
        var bytes = Data(capacity: floats.count * 4)
        for value in floats { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        tensor.rawData = bytes
        graph.initializer.append(tensor)
        return tensor.name
    }

    /// A float32 scalar, one initializer per value however many nodes read it (clip bounds).
    mutating func scalar(_ value: Float) -> String {
        if let name = scalars[value] { return name }
        let name = initializer("const_\(value)", floats: [value], shape: [])
        scalars[value] = name
        return name
    }

    /// An int64 constant (shapes, axes, slice bounds).
    mutating func initializer(_ base: String, int64s: [Int64], shape: [Int]? = nil) -> String {
        var tensor = Onnx_TensorProto()
        tensor.name = uniqueName(base)
        tensor.dataType = Int32(Onnx_TensorProto.DataType.int64.rawValue)
        tensor.dims = (shape ?? [int64s.count]).map(Int64.init)
        tensor.int64Data = int64s
        graph.initializer.append(tensor)
        return tensor.name
    }

    /// Adds one node writing one new value; returns the value's name. `output` names it
    /// exactly (graph outputs); otherwise it is `name` made unique.
    @discardableResult
    mutating func node(_ opType: String, _ inputs: [String], name: String, output: String? = nil,
                       attributes: [Onnx_AttributeProto] = []) -> String {
        var node = Onnx_NodeProto()
        node.opType = opType
        node.name = uniqueName(name)
        node.input = inputs
        let result = uniqueName(output ?? "\(node.name)_out")
        node.output = [result]
        node.attribute = attributes
        graph.node.append(node)
        return result
    }

    mutating func addInput(_ name: String, shape: [ONNXDimension], doc: String) {
        usedNames.insert(name)
        graph.input.append(Self.valueInfo(name, shape: shape, doc: doc))
    }

    /// Declares an existing value a graph output (its name is the one `node(…, output:)` chose).
    mutating func addOutput(_ name: String, shape: [ONNXDimension], doc: String) {
        graph.output.append(Self.valueInfo(name, shape: shape, doc: doc))
    }

    static func valueInfo(_ name: String, shape: [ONNXDimension], doc: String) -> Onnx_ValueInfoProto {
        var tensorType = Onnx_TypeProto.Tensor()
        tensorType.elemType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        tensorType.shape.dim = shape.map { dimension in
            var d = Onnx_TensorShapeProto.Dimension()
            switch dimension {
            case let .fixed(value): d.dimValue = Int64(value)
            case let .symbolic(name): d.dimParam = name
            }
            return d
        }
        var info = Onnx_ValueInfoProto()
        info.name = name
        info.type.tensorType = tensorType
        info.docString = doc
        return info
    }
}

/// Node attributes (ONNX stores each with its type tag).
enum ONNXAttribute {
    static func int(_ name: String, _ value: Int) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto()
        a.name = name
        a.type = .int
        a.i = Int64(value)
        return a
    }

    static func ints(_ name: String, _ values: [Int]) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto()
        a.name = name
        a.type = .ints
        a.ints = values.map(Int64.init)
        return a
    }

    static func string(_ name: String, _ value: String) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto()
        a.name = name
        a.type = .string
        a.s = Data(value.utf8)
        return a
    }
}
