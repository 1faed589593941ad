/// A parsed JSON value, shared by every JSON file ScreenLab reads (weights and safetensors
/// headers, COCO ground truth, COCO results). Written here rather than using Foundation's
/// JSONSerialization so that object members keep their order (tensor order, readable headers),
/// integers stay exact 64-bit values (byte offsets, ids), decimals are correctly rounded (on
/// Linux JSONSerialization can be off by a few ulps, which could flip an IoU tie against
/// pycocotools), numbers never become booleans, and the parser is covered by the fuzzer
/// (Fuzz/weights).
public enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number; non-finite only when the parser allows NaN/Infinity.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The number as a Double, for integers and decimals alike.
    public var doubleValue: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .number(value): return value
        default: return nil
        }
    }

    /// The number as an Int when it is a whole number in range (`3` and `3.0` alike).
    public var intValue: Int? {
        switch self {
        case let .integer(value): return Int(exactly: value)
        case let .number(value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The value of `key` in an object (the last one if a lenient parse kept duplicates); nil
    /// for a missing key or a value that is not an object. A linear scan: the objects looked
    /// up by key are small (a COCO entry, a header section), where it beats hashing.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// "a number", "an object", …: for errors that say what was found instead.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Compact, readable text of a value for error messages (`[0, Infinity, 1, 1]`).
    public var shortDescription: String {
        switch self {
        case .number(let value) where value.isNaN: return "NaN"
        case .number(let value) where value.isInfinite: return value > 0 ? "Infinity" : "-Infinity"
        case .string(let text): return JSONWriter.quoted(text)
        case .array(let items): return "[" + items.map(\.shortDescription).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { "\(JSONWriter.quoted($0.key)): \($0.value.shortDescription)" }.joined(separator: ", ") + "}"
        default: return serialized
        }
    }
}
