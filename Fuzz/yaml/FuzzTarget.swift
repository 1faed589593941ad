// libFuzzer entry point for every YAML reader: `sh Fuzz/fuzz.sh yaml [runs] [seconds]`.
// Each input (as UTF-8 text) goes through Support's YAML entry point and strict reader (every
// accessor on every node, and its first line as a `--set` override), then the readers built on
// them: dataset config, a YOLO folder's data.yaml fields, model config, augmentation preset,
// thresholds file. A crash, a stack overflow, an AddressSanitizer report, a timeout (alias
// expansion) or a broken invariant is a bug; errors are the readers refusing bad input.
// Invariant: a thresholds file that reads is written back by `yaml()` and reads back equal.
import Augment
import Data
import Evaluation
import Foundation
import Support
@testable import Weights

let configURL = URL(fileURLWithPath: "/nonexistent/fuzz/config.yaml")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let text = try? UTF8Text.decode(bytes, path: "fuzz.yaml") else { return 0 }
    if let document = try? YAMLDocument.parse(text, file: "fuzz.yaml") { walk(document, depth: 0) }
    if let document = try? YAMLDocument.parse(text, file: "fuzz.yaml", options: .nullsRefused) { walk(document, depth: 0) }
    let firstLine = String(text.prefix { $0 != "\n" })
    if let overridden = try? YAMLOverrides.apply([firstLine], to: YAMLDocument.parse(text, file: "fuzz.yaml"), file: "fuzz.yaml") {
        walk(overridden, depth: 0, limit: 2 * 64)  // a key path of ≤ 64 parts, then a value ≤ 64 deep
    }
    _ = try? DatasetConfig.parse(yaml: text, file: configURL)
    _ = try? ModelConfig.parse(text, file: "model.yaml")
    _ = try? AugmentPreset.parse(yaml: text, file: "preset.yaml")
    if let thresholds = try? ThresholdFile.parse(text, file: "thresholds.yaml") {
        guard let again = try? ThresholdFile.parse(thresholds.yaml(), file: "again.yaml") else {
            preconditionFailure("the thresholds reader refused what the writer wrote:\n\(thresholds.yaml())")
        }
        precondition(again == thresholds, "a thresholds file changed in a write/read round trip")
    }
    return 0
}

/// Every strict accessor on every node (what a reader might ask), bounded by the depth limit.
func walk(_ value: YAMLValue, depth: Int, limit: Int = 64) {
    precondition(depth <= limit, "deeper than the entry point's limit")
    _ = try? value.string(); _ = try? value.int(); _ = try? value.double(in: 0...1); _ = try? value.bool(); _ = value.isNull
    _ = try? value.names(unique: true); _ = try? value.numbers(count: 3); _ = try? value.range(within: 0...2)
    _ = try? value.choice(among: ["yolo", "coco"])
    if let mapping = try? value.mapping() {
        for key in mapping.keys {
            _ = try? mapping.int(key, default: 0, range: 0...100); _ = try? mapping.double(key, default: 0, range: -1...1)
            _ = try? mapping.bool(key, default: false); _ = try? mapping.optionalString(key); _ = try? mapping.choice(key, default: "a", ["a", "b"])
            if let child = mapping.value(key) { walk(child, depth: depth + 1, limit: limit) }
        }
        _ = try? mapping.required("name"); _ = try? mapping.mapping("absent").finish()
        do {
            try mapping.finish()
        } catch {
            preconditionFailure("every key was asked for, yet finish() refused: \(error)")
        }
    } else if let list = try? value.list() {
        for child in list { walk(child, depth: depth + 1, limit: limit) }
    }
}
