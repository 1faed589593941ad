import XCTest
@testable import Weights

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
                XCTAssertTrue((error as? JSONParseError)?.reason.contains(reason) == true, "\(text): \(error)")
            }
        }
    }

    func testDepthIsBounded() {
        XCTAssertNoThrow(try JSONParser.parse(String(repeating: "[", count: 63) + String(repeating: "]", count: 63)))
        XCTAssertThrowsError(try JSONParser.parse(String(repeating: "[", count: 100_000))) { error in
            XCTAssertTrue((error as? JSONParseError)?.reason.contains("nesting deeper") == true)
        }
    }

    func testRejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        XCTAssertThrowsError(try bytes.withUnsafeBytes { try JSONParser.parse($0) })
    }
}
