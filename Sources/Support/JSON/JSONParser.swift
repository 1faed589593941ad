import Foundation

/// A JSON syntax error at a byte of the input; `description` gives the line and column.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// Byte offset from the start of the parsed bytes.
    public let offset: Int
    /// 1-based; columns count bytes.
    public let line: Int
    public let column: Int
    public let reason: String
    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// A strict JSON (RFC 8259) parser over bytes. `parse` reads a whole document; the cursor
/// API (`position`, `skipWhitespace`, `parseValue`, `parseNumber`) lets a reader walk a large
/// top-level array itself and take a fast path for the entries it knows (COCOResultsReader).
public struct JSONParser {
    public struct Options {
        /// Deeper nesting is refused: recursion depth is bounded no matter what a file holds.
        public var maximumDepth: Int
        /// Accept the tokens NaN, Infinity and -Infinity and numbers too large for a Double
        /// (as ±infinity), which Python's json writes and reads: a reader can then name the
        /// entry that holds them instead of failing on the whole file.
        public var allowsNonFiniteNumbers: Bool
        /// A repeated key replaces the earlier value (Python's json) instead of being an error.
        public var keepsLastDuplicateKey: Bool

        public init(maximumDepth: Int = 64, allowsNonFiniteNumbers: Bool = false, keepsLastDuplicateKey: Bool = false) {
            self.maximumDepth = maximumDepth
            self.allowsNonFiniteNumbers = allowsNonFiniteNumbers
            self.keepsLastDuplicateKey = keepsLastDuplicateKey
        }

        /// RFC 8259 with unique keys and at most 64 levels (file headers).
        public static let strict = Options()
        /// What Python's `json.load` accepts (files written by Python tools: COCO, detections).
        public static let python = Options(maximumDepth: 512, allowsNonFiniteNumbers: true, keepsLastDuplicateKey: true)
    }

    public let bytes: UnsafeBufferPointer<UInt8>
    public let options: Options
    public var position = 0
    /// Elements and members of the containers being parsed, innermost last: each container is
    /// copied out once at its end, instead of growing an array per container (most are small).
    private var elementStack: [JSONValue] = []
    private var memberStack: [(key: String, value: JSONValue)] = []

    public init(bytes: UnsafeRawBufferPointer, options: Options = .strict) {
        self.bytes = bytes.assumingMemoryBound(to: UInt8.self)
        self.options = options
    }

    /// One JSON value spanning all of `bytes` (whitespace around it allowed).
    public static func parse(_ bytes: UnsafeRawBufferPointer, options: Options = .strict) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, options: options)
        let value = try parser.parseValue()
        try parser.expectEnd()
        return value
    }

    public static func parse(_ text: String, options: Options = .strict) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0), options: options) }
    }

    public static func parse(_ data: Data, options: Options = .strict) throws -> JSONValue {
        try data.withUnsafeBytes { try parse($0, options: options) }
    }

    // MARK: Cursor

    public var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Only whitespace from here to the end.
    public mutating func expectEnd() throws {
        skipWhitespace()
        guard position == bytes.count else { throw syntaxError("unexpected text after the JSON value") }
    }

    /// The error at the current position, with its line and column.
    public func syntaxError(_ reason: String) -> JSONSyntaxError {
        let end = min(position, bytes.count)
        var line = 1, lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
        return JSONSyntaxError(offset: position, line: line, column: end - lineStart + 1, reason: reason)
    }

    private func truncated(_ place: String = "") -> JSONSyntaxError { syntaxError("unexpected end of JSON\(place) (truncated?)") }

    /// `depth` is the nesting level of the value (0 for a document's top level).
    public mutating func parseValue(depth: Int = 0) throws -> JSONValue {
        guard depth < options.maximumDepth else { throw syntaxError("nesting deeper than \(options.maximumDepth) levels") }
        skipWhitespace()
        guard let byte = peek else { throw truncated() }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "N") where options.allowsNonFiniteNumbers: try expect("NaN"); return .number(.nan)
        case UInt8(ascii: "I") where options.allowsNonFiniteNumbers: try expect("Infinity"); return .number(.infinity)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw syntaxError("unexpected " + Self.describe(byte))
        }
    }

    /// `character 'x'`, or `byte 0x80` for what would not print.
    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "character '\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func expect(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw truncated() }
        for index in 0..<count where bytes[position + index] != literal.utf8Start[index] {
            throw syntaxError("invalid literal (expected \(literal))")
        }
        position += count
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        position += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") { position += 1; return .object([]) }
        let base = memberStack.count
        var index: [String: Int]?  // built once an object is too large for a linear duplicate check
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw peek == nil ? truncated(" inside an object") : syntaxError("expected a quoted key") }
            let keyStart = position
            let key = try parseString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw peek == nil ? truncated(" inside an object") : syntaxError("expected ':' after key \"\(key)\"") }
            position += 1
            let value = try parseValue(depth: depth + 1)
            if memberStack.count - base == 16, index == nil {
                index = Dictionary(memberStack[base...].enumerated().map { ($1.key, base + $0) }, uniquingKeysWith: { $1 })
            }
            let existing = index != nil ? index![key] : memberStack[base...].firstIndex { $0.key == key }
            if let existing {
                guard options.keepsLastDuplicateKey else { position = keyStart; throw syntaxError("duplicate key \"\(key)\"") }
                memberStack[existing].value = value
            } else {
                index?[key] = memberStack.count
                memberStack.append((key, value))
            }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                let members = Array(memberStack[base...])
                memberStack.removeSubrange(base...)
                return .object(members)
            case nil: throw truncated(" inside an object")
            default: throw syntaxError("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        position += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") { position += 1; return .array([]) }
        let base = elementStack.count
        repeat {
            elementStack.append(try parseValue(depth: depth + 1))
        } while try arrayContinues()
        let elements = Array(elementStack[base...])
        elementStack.removeSubrange(base...)
        return .array(elements)
    }

    /// After an array element: consumes the ',' (true: another element follows) or the ']'.
    public mutating func arrayContinues() throws -> Bool {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: ","): position += 1; return true
        case UInt8(ascii: "]"): position += 1; return false
        case nil: throw truncated(" inside an array")
        default: throw syntaxError("expected ',' or ']' in array")
        }
    }

    // MARK: Strings

    /// The string at `position` (which holds its opening quote).
    public mutating func parseString() throws -> String {
        position += 1
        // Most strings have no escapes: make the String straight from the bytes.
        var end = position, isASCII = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let utf8 = UnsafeBufferPointer(rebasing: bytes[position..<end])
                // ASCII needs no validation (and String(decoding:) is much faster than the generic String(validating:)).
                guard let text = isASCII ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self) else {
                    throw syntaxError("string is not valid UTF-8")
                }
                position = end + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            isASCII = isASCII && byte < 0x80
            end += 1
        }
        var utf8 = Array(bytes[position..<end])
        position = end
        while true {
            guard let byte = peek else { throw truncated(" inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else { throw syntaxError("string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard let escape = peek else { throw truncated(" inside a string") }
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    position += 1
                    utf8.append(contentsOf: try parseUnicodeEscape())
                    continue
                default: throw syntaxError("invalid escape: backslash then " + Self.describe(escape))
                }
                position += 1
            case 0x00..<0x20: throw syntaxError("control character in string (escape it)")
            default: utf8.append(byte); position += 1
            }
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw truncated(" inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw syntaxError("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws -> [UInt8] {
        var scalarValue = try parseHex4()
        if (0xD800..<0xDC00).contains(scalarValue) {
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw syntaxError("unpaired surrogate in \\u escape") }
            position += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw syntaxError("unpaired surrogate in \\u escape") }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw syntaxError("unpaired surrogate in \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: Numbers

    /// The number at `position`: `.integer` when written without fraction or exponent and in
    /// Int64 range (exact), `.number` otherwise (correctly rounded, like Python's float()).
    public mutating func parseNumber() throws -> JSONValue {
        let start = position
        let negative = peek == UInt8(ascii: "-")
        if negative {
            position += 1
            if options.allowsNonFiniteNumbers, peek == UInt8(ascii: "I") { try expect("Infinity"); return .number(-.infinity) }
        }
        guard let first = peek, Self.isDigit(first) else { throw peek == nil ? truncated() : syntaxError("invalid number") }
        var magnitude: UInt64 = 0, overflow = false
        if first == UInt8(ascii: "0") { position += 1 } else {
            while let byte = peek, Self.isDigit(byte) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                magnitude = sum
                overflow = overflow || o1 || o2
                position += 1
            }
        }
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw syntaxError("invalid number: digits must follow '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw syntaxError("invalid number: digits must follow the exponent") }
        }
        if isInteger, !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) }
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
        let value = Self.double(slice)
        guard value.isFinite || options.allowsNonFiniteNumbers else {
            let end = position
            position = start
            throw syntaxError("number \(String(decoding: bytes[start..<end], as: UTF8.self)) is out of range")
        }
        return .number(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = peek, Self.isDigit(byte) { position += 1 }
        return position - start
    }

    /// The correctly rounded Double of a number already checked against the JSON grammar.
    /// C `strtod` on a stack copy (no String per number); if it stops early (a locale whose
    /// decimal point is not '.') or the text is long, Swift's locale-independent `Double(_:)`.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        let capacity = 64
        if text.count < capacity {
            let parsed: Double? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
                for index in 0..<text.count { buffer[index] = CChar(bitPattern: text[index]) }
                buffer[text.count] = 0
                var stop: UnsafeMutablePointer<CChar>?
                let value = strtod(buffer.baseAddress!, &stop)
                return stop == buffer.baseAddress! + text.count ? value : nil
            }
            if let parsed { return parsed }
        }
        return Double(String(decoding: text, as: UTF8.self))!
    }
}
