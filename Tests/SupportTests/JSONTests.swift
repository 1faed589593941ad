import XCTest
import Support

final class JSONTests: XCTestCase {
    func testParsesEveryKindAndKeepsKeyOrder() throws {
        let value = try JSONParser.parse(#" {"z": [1, -2.5e3, true, false, null], "a": "x\"\u00e9\ud83d\ude00\n", "big": 9007199254740993} "#)
        XCTAssertEqual(value, .object([
            ("z", .array([.integer(1), .number(-2500), .bool(true), .bool(false), .null])),
            ("a", .string("x\"é😀\n")),
            ("big", .integer(9_007_199_254_740_993)),  // exact: beyond Double's 2^53
        ]))
    }

    func testSerializationRoundTrips() throws {
        let value = JSONValue.object([("name", .string("tab\there \"q\" \u{1}")), ("values", .array([.number(0.1), .number(1e-30), .integer(-3)])),
                                      ("nested", .object([("empty", .array([])), ("obj", .object([]))]))])
        XCTAssertEqual(try JSONParser.parse(value.serialized), value)
        XCTAssertEqual(JSONValue.number(0.1).serialized, "0.1")
        XCTAssertEqual(JSONValue.number(512).serialized, "512")
    }

    func testRejectsMalformedInputWithOffset() {
        let cases: [(String, String)] = [
            ("", "unexpected end"), ("{\"a\":1,}", "quoted key"), ("[1 2]", "','"), ("{\"a\":1,\"a\":2}", "duplicate key"),
            ("01", "after the JSON value"), ("1.", "digits must follow"), ("\"\\x\"", "invalid escape"), ("tru", "unexpected end"),
            ("\"\\ud800\"", "unpaired surrogate"), ("1e999", "out of range"), ("\"a\nb\"", "control character"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                XCTAssertTrue((error as? JSONSyntaxError)?.reason.contains(reason) == true, "\(text): \(error)")
            }
        }
    }

    func testDepthIsBounded() {
        XCTAssertNoThrow(try JSONParser.parse(String(repeating: "[", count: 63) + String(repeating: "]", count: 63)))
        XCTAssertThrowsError(try JSONParser.parse(String(repeating: "[", count: 100_000))) { error in
            XCTAssertTrue((error as? JSONSyntaxError)?.reason.contains("nesting deeper") == true)
        }
    }

    func testRejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        XCTAssertThrowsError(try bytes.withUnsafeBytes { try JSONParser.parse($0) })
    }
}

/// What Support's parser adds for the files Python writes (COCO ground truth and results) and
/// the guarantees every reader relies on: exact integers, correctly rounded doubles, positions.
final class JSONParserOptionsTests: XCTestCase {
    func testIntegersAreExactAndOnlyPlainIntegersAreIntegers() throws {
        XCTAssertEqual(try JSONParser.parse("[-9223372036854775808, 9223372036854775807, 9223372036854775808, 1.0, 1e2, -0]"), .array([
            .integer(.min), .integer(.max),
            .number(9_223_372_036_854_775_808),  // beyond Int64: a Double, like Python's float(int)
            .number(1), .number(100), .integer(0),
        ]))
        XCTAssertEqual(JSONValue.number(3).intValue, 3)
        XCTAssertNil(JSONValue.number(3.5).intValue)
        XCTAssertNil(JSONValue.string("3").intValue)
    }

    /// Hard cases for decimal → binary conversion (halfway points, subnormals, the largest
    /// double, a 55-digit exact halfway that takes the long-text path): the parser must agree
    /// bit for bit with Swift's correctly rounded `Double(_:)`.
    func testDoublesAreCorrectlyRounded() throws {
        let texts = ["0.1", "0.30000000000000004", "0.42936741299104003", "125.66004341855162", "2.2250738585072011e-308",
                     "2.2250738585072014E-308", "4.9406564584124654e-324", "1.7976931348623157e308", "9007199254740993.0",
                     "1.00000000000000011102230246251565404236316680908203125", "-1.5e-3", "123456789012345678901234567890"]
        for text in texts {
            let parsed = try JSONParser.parse(text).doubleValue
            XCTAssertEqual(parsed?.bitPattern, Double(text)!.bitPattern, text)
        }
        XCTAssertEqual(try JSONParser.parse("9007199254740993.0").doubleValue, 9_007_199_254_740_992, "halfway rounds to even")
    }

    func testPythonOptionAcceptsNonFiniteNumbersAndKeepsTheLastDuplicate() throws {
        let text = #"{"a": [NaN, Infinity, -Infinity, 1e999, -1e999], "b": 1, "a": 2}"#
        XCTAssertThrowsError(try JSONParser.parse(text)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.reason, "unexpected character 'N'")
        }
        XCTAssertThrowsError(try JSONParser.parse("[1e999]")) { XCTAssertTrue("\($0)".contains("number 1e999 is out of range"), "\($0)") }
        let value = try JSONParser.parse(text, options: .python)
        guard case let .object(members) = value, case let .array(numbers)? = try JSONParser.parse(text.replacingOccurrences(of: #", "a": 2"#, with: ""), options: .python)["a"]
        else { return XCTFail("\(value)") }
        XCTAssertEqual(members.map(\.key), ["a", "b"], "a repeated key keeps its first place, as in a Python dict")
        XCTAssertEqual(value["a"], .integer(2))
        XCTAssertTrue(numbers[0].doubleValue!.isNaN)
        XCTAssertEqual(numbers.dropFirst().map(\.doubleValue), [.infinity, -.infinity, .infinity, -.infinity])
        XCTAssertEqual(JSONValue.array(numbers).shortDescription, "[NaN, Infinity, -Infinity, Infinity, -Infinity]")
        XCTAssertThrowsError(try JSONParser.parse("[Nan]", options: .python)) { XCTAssertTrue("\($0)".contains("expected NaN"), "\($0)") }
    }

    /// Objects of more than 16 members check duplicates through an index: same answers.
    func testDuplicateKeysInLargeObjects() throws {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }
        let unique = "{" + members.joined(separator: ", ") + "}"
        XCTAssertEqual(try JSONParser.parse(unique)["k39"], .integer(39))
        let repeated = "{" + (members + [#""k3": "late""#, #""k30": true"#]).joined(separator: ", ") + "}"
        XCTAssertThrowsError(try JSONParser.parse(repeated)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.reason, #"duplicate key "k3""#)
        }
        let lenient = try JSONParser.parse(repeated, options: .python)
        guard case let .object(kept) = lenient else { return XCTFail() }
        XCTAssertEqual(kept.count, 40)
        XCTAssertEqual(lenient["k3"], .string("late"))
        XCTAssertEqual(lenient["k30"], .bool(true))
        XCTAssertEqual(kept[3].key, "k3")
    }

    func testSyntaxErrorsGiveLineColumnAndOffset() {
        XCTAssertThrowsError(try JSONParser.parse("{\n  \"a\": 1,\n  \"b\" 2\n}")) { error in
            let error = error as? JSONSyntaxError
            XCTAssertEqual([error?.offset, error?.line, error?.column], [18, 3, 7])
            XCTAssertEqual(error?.description, #"line 3, column 7: expected ':' after key "b""#)
        }
        XCTAssertThrowsError(try (Array("[1, ".utf8) + [0x80, 0x5D]).withUnsafeBytes { try JSONParser.parse($0) }) { XCTAssertTrue("\($0)".hasSuffix("column 5: unexpected byte 0x80"), "\($0)") }
        XCTAssertThrowsError(try JSONParser.parse("[1, [2")) { XCTAssertTrue("\($0)".contains("inside an array (truncated?)"), "\($0)") }
        XCTAssertThrowsError(try JSONParser.parse(#"{"a": "b"#)) { XCTAssertTrue("\($0)".contains("inside a string (truncated?)"), "\($0)") }
    }

    func testDepthIsAnOption() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { XCTAssertTrue("\($0)".contains("nesting deeper than 64 levels"), "\($0)") }
        XCTAssertNoThrow(try JSONParser.parse(deep, options: .python))
    }

    func testWriterNumbersAndStrings() throws {
        XCTAssertEqual(JSONWriter.number(640), "640")
        XCTAssertEqual(JSONWriter.number(1e-5), "1e-05")
        XCTAssertEqual(JSONWriter.number(0.30000000000000004), "0.30000000000000004")
        XCTAssertEqual(JSONWriter.quoted("a\"b\\c\td\u{1}é"), #""a\"b\\c\td\u0001é""#)
        XCTAssertEqual(try JSONParser.parse(JSONWriter.quoted("a\"b\\c\td\u{1}é")), .string("a\"b\\c\td\u{1}é"))
    }
}
