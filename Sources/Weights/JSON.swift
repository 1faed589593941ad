/// A small strict JSON (RFC 8259) reader and writer for the weights header and the
/// safetensors header. Written here rather than using Foundation's JSONSerialization so that
/// object keys keep their order (the tensor order of a safetensors file, readable headers),
/// integers stay exact 64-bit values (byte offsets), numbers never become booleans, nesting
/// depth is bounded, and the whole parser is covered by the fuzzer.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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
    var doubleValue: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .number(value): return value
        default: return nil
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

struct JSONParseError: Error {
    let offset: Int
    let reason: String
}

/// Parses one JSON value spanning all of `bytes` (whitespace around it allowed).
struct JSONParser {
    /// Deeper nesting is refused: recursion depth is bounded no matter what a file holds.
    static let maximumDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    static func parse(_ text: String) throws -> JSONValue {
        let utf8 = Array(text.utf8)
        return try utf8.withUnsafeBytes { try parse($0) }
    }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private func failure(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        let expected = Array(literal.utf8)
        guard bytes.count - position >= expected.count else { throw failure("unexpected end of JSON") }
        for index in 0..<expected.count where bytes[position + index] != expected[index] {
            throw failure("invalid literal (expected \(literal))")
        }
        position += expected.count
        return value
    }

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < JSONParser.maximumDepth else { throw failure("nesting deeper than \(JSONParser.maximumDepth) levels") }
        skipWhitespace()
        guard let byte = current else { throw failure("unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
            let key = try parseString()
            guard seen.insert(key).inserted else { throw failure("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after key \"\(key)\"") }
            position += 1
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseString() throws -> String {
        position += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw failure("unterminated escape") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try parseUnicodeEscape())
                default: throw failure("invalid escape '\\\(Unicode.Scalar(escape))'")
                }
            case 0x00..<0x20: throw failure("control character in string")
            default: utf8.append(byte)
            }
        }
    }

    private mutating func parseUnicodeEscape() throws -> [UInt8] {
        var scalarValue = try parseHex4()
        if (0xD800..<0xDC00).contains(scalarValue) {
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw failure("unpaired surrogate in \\u escape") }
            position += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate in \\u escape") }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("invalid \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw failure("invalid number") }
        if first == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw failure("invalid number: digits must follow '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw failure("invalid number: digits must follow the exponent") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw failure("number \(text) is out of range") }
        return .number(value)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }
}

extension JSONValue {
    /// Compact JSON text; object keys in their stored order, so output is deterministic.
    var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .integer(value): output += String(value)
        case let .number(value):
            // Swift prints the shortest text that parses back to the same Double.
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 { output += String(Int64(value)) } else { output += "\(value)" }
        case let .string(value): JSONValue.writeString(value, to: &output)
        case let .array(elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case let .object(members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
