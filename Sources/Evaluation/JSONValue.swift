import Foundation

/// A small JSON reader for prediction files. Numbers are converted with Swift's `Double(_:)`
/// (correctly rounded, like Python's json) because Foundation's JSONSerialization on Linux can be
/// off by a few ulps, which could flip an IoU tie against pycocotools. The tokens NaN, Infinity
/// and -Infinity (written by Python's json.dump) are accepted as numbers so the entry that holds
/// them can be named in the error (or skipped under --lenient).
indirect enum JSONValue: Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    struct SyntaxError: Error, CustomStringConvertible {
        let line: Int
        let column: Int
        let reason: String
        var description: String { "line \(line), column \(column): \(reason)" }
    }

    static func parse(_ data: Data) throws -> JSONValue {
        var parser = Parser(bytes: [UInt8](data))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Compact text of a value for error messages.
    var shortDescription: String {
        switch self {
        case .number(let d): return d.isNaN ? "NaN" : d.isInfinite ? (d > 0 ? "Infinity" : "-Infinity") : (d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d))
        case .string(let s): return "\"\(s)\""
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.shortDescription).joined(separator: ", ") + "]"
        case .object(let map): return "{" + map.keys.sorted().map { "\"\($0)\": \(map[$0]!.shortDescription)" }.joined(separator: ", ") + "}"
        }
    }

    struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ reason: String) -> SyntaxError {
            var line = 1, column = 1
            for byte in bytes[0..<min(position, bytes.count)] {
                if byte == 10 { line += 1; column = 1 } else { column += 1 }
            }
            return SyntaxError(line: line, column: column, reason: reason)
        }

        static func isWhitespace(_ byte: UInt8) -> Bool {
            switch byte { case 32, 9, 10, 13: return true; default: return false }
        }

        /// Digits, sign, point and exponent.
        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte { case 48...57, 43, 45, 46, 69, 101: return true; default: return false }
        }

        mutating func skipWhitespace() {
            while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < 512 else { throw error("nesting too deep") }
            guard position < bytes.count else { throw error("unexpected end of file (truncated?)") }
            switch bytes[position] {
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "N"): try literal("NaN"); return .number(.nan)
            case UInt8(ascii: "I"): try literal("Infinity"); return .number(.infinity)
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: String) throws {
            let utf8 = Array(word.utf8)
            guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
                throw error("unexpected character '\(Character(UnicodeScalar(bytes[position])))'")
            }
            position += utf8.count
        }

        mutating func number() throws -> Double {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "I") { try literal("Infinity"); return -.infinity }
            }
            while position < bytes.count, Self.isNumberByte(bytes[position]) {
                position += 1
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard !text.isEmpty, let value = Double(text), text.first != "+", text.first != "." else {
                position = start
                throw error(text.isEmpty ? "unexpected character '\(Character(UnicodeScalar(bytes[start])))'" : "bad number '\(text)'")
            }
            return value
        }

        mutating func string() throws -> String {
            position += 1  // opening quote
            var scalars: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: scalars, as: UTF8.self) }
                guard byte == UInt8(ascii: "\\") else { scalars.append(byte); continue }
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "n"): scalars.append(10)
                case UInt8(ascii: "t"): scalars.append(9)
                case UInt8(ascii: "r"): scalars.append(13)
                case UInt8(ascii: "b"): scalars.append(8)
                case UInt8(ascii: "f"): scalars.append(12)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                       bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(contentsOf: Array(String(UnicodeScalar(code).map(Character.init) ?? "\u{FFFD}").utf8))
                default: scalars.append(escape)  // \" \\ \/
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw error("bad \\u escape")
            }
            position += 4
            return code
        }

        mutating func array(depth: Int) throws -> JSONValue {
            position += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of file inside an array (truncated?)") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        }

        mutating func object(depth: Int) throws -> JSONValue {
            position += 1
            var map: [String: JSONValue] = [:]
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(map) }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                let key = try string()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
                position += 1
                skipWhitespace()
                map[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of file inside an object (truncated?)") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(map) }
                throw error("expected ',' or '}'")
            }
        }
    }
}
