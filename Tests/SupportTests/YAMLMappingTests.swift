import Foundation
import Support
import XCTest

/// The one strict reader every config goes through (experiments, model, dataset and training
/// model configs, presets, thresholds files).
final class YAMLMappingTests: XCTestCase {
    func read(_ text: String, options: YAMLReadOptions = YAMLReadOptions()) throws -> YAMLMapping {
        try YAMLMapping(document: YAMLDocument.parse(text, file: "c.yaml", options: options), file: "c.yaml")
    }

    func message(_ body: () throws -> Any?) -> String {
        do { return "no error: \(String(describing: try body()))" } catch { return "\(error)" }
    }

    func testUnknownKeysAreRefusedWithTheClosestKnownKeyAndTheKnownOnes() throws {
        let top = try read("epochs: 3\nbatch_szie: 8\noptimizer: {lr: 0.1, momentun: 0.9}\n")
        XCTAssertEqual(try top.int("epochs", default: 1, range: 1...100), 3)
        XCTAssertEqual(try top.int("batch_size", default: 16, range: 2...1024), 16, "the typo hides the key: its default applies")
        let optimizer = try top.mapping("optimizer")
        XCTAssertEqual(try optimizer.double("lr", default: 0.01, range: 0...10), 0.1)
        _ = try optimizer.double("momentum", default: 0.9, range: 0...1)
        XCTAssertEqual(message { try optimizer.finish() },
                       "c.yaml:3 (optimizer.momentun): unknown key — did you mean 'momentum'? (known here: lr, momentum)")
        XCTAssertEqual(message { try top.finish() },
                       "c.yaml:2 (batch_szie): unknown key — did you mean 'batch_size'? (known here: batch_size, epochs, optimizer)")
        // No suggestion when nothing is close.
        let other = try read("colour: red\n")
        _ = other.value("size")
        XCTAssertEqual(message { try other.finish() }, "c.yaml:1 (colour): unknown key (known here: size)")
        XCTAssertEqual(other.keys, ["colour"])
    }

    func testAMissingRequiredKeyThatATypoExplainsIsReportedAsTheTypo() throws {
        XCTAssertEqual(message { try self.read("nmae: x\n").required("name") },
                       "c.yaml:1 (nmae): unknown key — did you mean 'name'? (known here: name)")
        XCTAssertEqual(message { try self.read("other: x\n").required("name") }, "c.yaml:1 (name): missing")
    }

    func testDuplicateKeysAreRefusedAtEveryLevel() {
        XCTAssertEqual(message { try self.read("a: 1\nb: 2\na: 3\n") }, "c.yaml:3 (a): appears twice (first on line 1); keep one")
        XCTAssertEqual(message { try self.read("s:\n  x: 1\n  x: 2\n").mapping("s") }, "c.yaml:3 (s.x): appears twice (first on line 2); keep one")
        XCTAssertEqual(message { try self.read("[a, b]\n") }, "c.yaml:1: expected a mapping of key: value, found a list")
        XCTAssertEqual(message { try self.read("? [a]\n: 1\n") }, "c.yaml:1: keys must be text, found a list")
    }

    func testTypedAccessorsNameWhatTheyExpectedAndFound() throws {
        let top = try read("""
            n: many
            big: 99
            x: .nan
            f: yes please
            c: cosin
            names: [A, B, A]
            nested: [A, [B]]
            mean: [0.5, 0.5]
            r: [1.2, 0.8]
            wide: [0, 9]
            m: 3
            s: [x]
            """)
        let cases: [(String, () throws -> Any?)] = [
            ("c.yaml:1 (n): expected an integer, found 'many'", { try top.int("n", default: 1, range: 0...10) }),
            ("c.yaml:2 (big): 99 is out of range; allowed 0…10", { try top.optionalInt("big", range: 0...10) }),
            ("c.yaml:2 (big): 99.0 is out of range; allowed 0.0…1.0", { try top.double("big", default: 0, range: 0...1) }),
            ("c.yaml:3 (x): expected a finite number, found '.nan'", { try top.optionalDouble("x", range: 0...1) }),
            ("c.yaml:4 (f): expected true or false, found 'yes please'", { try top.bool("f", default: false) }),
            ("c.yaml:5 (c): 'cosin' is not one of cosine, linear — did you mean 'cosine'?", { try top.choice("c", default: "linear", ["cosine", "linear"]) }),
            ("c.yaml:6 (names[2]): 'A' is listed twice (also names[0]); keep one", { try top.names("names", unique: true) }),
            ("c.yaml:7 (nested[1]): expected a name, found a list", { try top.names("nested") }),
            ("c.yaml:8 (mean): has 2 numbers; expected 3", { try top.numbers("mean", count: 3) }),
            ("c.yaml:9 (r): low 1.2 is above high 0.8", { try top.range("r", within: 0...2) }),
            ("c.yaml:10 (wide): [0.0, 9.0] is out of range; allowed 0.0…2.0 for both ends", { try top.range("wide", within: 0...2) }),
            ("c.yaml:11 (m): expected a mapping of key: value, found '3'", { try top.mapping("m") }),
            ("c.yaml:12 (s): expected a single value, found a list", { try top.optionalString("s") }),
        ]
        for (expected, body) in cases { XCTAssertEqual(message(body), expected) }
        XCTAssertEqual(try top.names("names"), ["A", "B", "A"], "duplicates are allowed unless unique")
    }

    func testValuesAndDefaults() throws {
        let top = try read("lr: 1e-05\nname: ''\nflag: true\nfixed: 0.5\npair: [0.5, 1.5]\nsection: {a: 1}\n")
        XCTAssertEqual(try top.double("lr", default: 1, range: 0...1), 1e-05)
        XCTAssertEqual(try top.string("name", default: "x"), "", "any single value is text, even empty")
        XCTAssertEqual(try top.bool("flag", default: false), true)
        XCTAssertEqual(try top.range("fixed", within: 0...2), 0.5...0.5)
        XCTAssertEqual(try top.range("pair", within: 0...2), 0.5...1.5)
        XCTAssertEqual(try top.int("absent", default: 7, range: 0...10), 7)
        let absent = try top.mapping("nothing")
        XCTAssertEqual(try absent.int("a", default: 2, range: 0...9), 2, "an absent section reads as empty")
        XCTAssertEqual(absent.error("a", "x").key, "nothing.a")
        XCTAssertEqual(try top.mapping("section").int("a", default: 0, range: 0...9), 1)
        _ = top.value("section")
        XCTAssertNoThrow(try top.finish())
    }

    func testNullMeansAbsentOrIsRefusedAsTheReaderChooses() throws {
        let text = "a: null\nb: ~\nc:\nd: 'null'\n"
        let lenient = try read(text)
        XCTAssertEqual(try lenient.int("a", default: 4, range: 0...9), 4)
        XCTAssertNil(lenient.value("b"))
        XCTAssertTrue(lenient.has("c"))
        XCTAssertEqual(try lenient.string("c", default: "default"), "default")
        XCTAssertEqual(try lenient.optionalString("d"), "null", "quoted, it is text")
        XCTAssertEqual(try lenient.mapping("a").keys, [])
        let strict = try read(text, options: .nullsRefused)
        XCTAssertEqual(message { try strict.int("a", default: 4, range: 0...9) }, "c.yaml:1 (a): expected an integer, found 'null'")
        XCTAssertEqual(message { try strict.mapping("b") }, "c.yaml:2 (b): expected a mapping of key: value, found '~'")
        XCTAssertEqual(message { try strict.value("c")?.string() }, "c.yaml:3 (c): expected a non-empty text value, found nothing")
    }

    func testSetOverridesAreCheckedLikeTheFileAndNamedAsSet() throws {
        let document = try YAMLOverrides.apply(["optimizer.lr=0.5", "epohcs=3", "ema.decay=0.9", "seed=x"],
                                               to: YAMLDocument.parse("epochs: 2\noptimizer: {name: sgd}\nema: false\n", file: "e.yaml"), file: "e.yaml")
        let top = try YAMLMapping(document)
        XCTAssertEqual(try top.int("epochs", default: 1, range: 1...9), 2)
        let optimizer = try top.mapping("optimizer")
        XCTAssertEqual(try optimizer.double("lr", default: 0, range: 0...1), 0.5)
        XCTAssertEqual(try top.mapping("ema").double("decay", default: 0, range: 0...1), 0.9, "`ema: false` becomes a section")
        XCTAssertEqual(message { try top.int("seed", default: 0, range: 0...9) }, "--set (seed): expected an integer, found 'x'")
        XCTAssertEqual(message { try optimizer.finish() }, "e.yaml:2 (optimizer.name): unknown key (known here: lr)", "the file's own keys keep their lines")
        XCTAssertEqual(message { try top.finish() },
                       "--set (epohcs): unknown key — did you mean 'epochs'? (known here: ema, epochs, optimizer, seed)")
        let bad: [(String, String)] = [
            ("epochs", "--set: 'epochs' is not key=value (e.g. --set epochs=1, --set optimizer.lr=0.01)"),
            ("a..b=1", "--set (a..b): empty key segment"),
            ("epochs.x=1", "--set (epochs.x): 'epochs' is not a mapping, so it has no key 'x'"),
            ("x=[[", "--set (x): value '[[': not valid YAML"),
            (Array(repeating: "a", count: 65).joined(separator: ".") + "=1", "--set: a key of more than 64 parts"),
        ]
        for (override, expected) in bad {
            XCTAssertTrue(message { try YAMLOverrides.apply([override], to: YAMLDocument.parse("epochs: 2\n", file: "e.yaml"), file: "e.yaml") }
                .hasPrefix(expected), override)
        }
        let deep = "x=" + String(repeating: "[", count: 10_000)
        XCTAssertTrue(message { try YAMLOverrides.apply([deep], to: nil, file: "e.yaml") }.contains("nested more than 64 levels"),
                      "the entry point's limits apply to --set values")
    }

    func testAllowedKeysAreCheckedAtOnce() throws {
        let document = try XCTUnwrap(YAMLDocument.parse("strategy: x\nstratgy: y\n", file: "t.yaml"))
        XCTAssertEqual(message { try document.mapping(allowed: ["strategy", "classes"]) },
                       "t.yaml:2 (stratgy): unknown key — did you mean 'strategy'? (known here: classes, strategy)")
    }

    func testKeySuggestion() {
        XCTAssertEqual(KeySuggestion.closest(to: "epohcs", among: ["epochs", "seed"]), "epochs")
        XCTAssertEqual(KeySuggestion.closest(to: "LR", among: ["lr"]), "lr")
        XCTAssertNil(KeySuggestion.closest(to: "colour", among: ["size", "name"]))
        XCTAssertNil(KeySuggestion.closest(to: "x", among: []))
        XCTAssertEqual(KeySuggestion.hint(for: "cosin", among: ["cosine"]), " — did you mean 'cosine'?")
        let long = String(repeating: "k", count: 1_000_000)
        let start = Date()
        XCTAssertNil(KeySuggestion.closest(to: long, among: ["epochs", long]), "no suggestion for an absurd word")
        XCTAssertNil(KeySuggestion.closest(to: "epochs", among: [long]))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }
}
