// libFuzzer entry point for the YOLO readers: `sh Fuzz/fuzz.sh yolo [runs] [seconds]`.
// Each input is parsed as a label file (every line, lenient and strict), as a manifest.tsv, as
// an attributes.tsv and as an accessibility.tsv. An input starting with "F" is also — split at
// NUL bytes into classes.txt, data.yaml, labels/a.txt, splits/train.txt and accessibility.tsv —
// written into a scratch YOLO folder (beside a real 40x20 PNG) that the folder reader loads
// leniently (files on disk: ~50× slower, so only for inputs the fuzzer marks as folders).
// Invariants: every box read is finite and of a known class; a line the writer formats from a
// read box reads back to the same box (to 1e-9 of the image); an accessibility.tsv that reads
// writes back to text that reads the same; a sample's true elements name only its boxes.
import Foundation
import Support
@testable import Data

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("screenlab-yolo-fuzz-\(getpid())")
let png: [UInt8] = Array(try! Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("seeds-image/screen1.png")))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    labels(bytes)
    if let text = try? UTF8Text.decode(bytes, path: "fuzz.tsv") {
        _ = try? ImageManifest.parse(text, url: URL(fileURLWithPath: "/fuzz/manifest.tsv"))
        _ = try? YOLOAttributes.parse(text, url: URL(fileURLWithPath: "/fuzz/attributes.tsv"))
        accessibility(text)
    }
    if bytes.first == 0x46 { folder(Array(bytes.dropFirst())) }  // "F"
    return 0
}

func labels(_ bytes: [UInt8]) {
    var lines: [Int] = []
    let lenient = IssueCollector(strict: false)
    guard let boxes = try? YOLOReader.parseLabels(bytes, file: "/fuzz/a.txt", classCount: 5, imageWidth: 40, imageHeight: 20,
                                                  issues: lenient, lineNumbers: &lines) else { preconditionFailure("lenient reader threw") }
    precondition(boxes.count == lines.count, "a box without its line number")
    for annotation in boxes {
        let b = annotation.box
        precondition(annotation.classIndex < 5 && [b.x, b.y, b.width, b.height].allSatisfy(\.isFinite), "bad box accepted")
        guard let line = try? YOLOLabelLine.checkedFormat(classIndex: annotation.classIndex, box: b, imageWidth: 40, imageHeight: 20, place: "fuzz")
        else { continue }  // absurd boxes are refused by the writer, by design
        guard case let .success(again) = YOLOLabelLine.parse(Substring(line)) else { preconditionFailure("the reader refused the writer's line \(line)") }
        let c = again.box(imageWidth: 40, imageHeight: 20)
        precondition(abs(c.x - b.x) <= 1e-6 * max(1, abs(b.x)) + 1e-7 && abs(c.width - b.width) <= 1e-6 * max(1, abs(b.width)) + 1e-7,
                     "line \(line) reads back as \(c), not \(b)")
    }
    var strictLines: [Int] = []
    _ = try? YOLOReader.parseLabels(bytes, file: "/fuzz/a.txt", classCount: 5, imageWidth: 40, imageHeight: 20,
                                    issues: IssueCollector(strict: true), lineNumbers: &strictLines)
}

func accessibility(_ text: String) {
    let url = URL(fileURLWithPath: "/fuzz/accessibility.tsv")
    guard let file = try? AccessibilityElementsFile.parse(text, url: url) else { return }
    for (key, elements) in file.rows {
        precondition(!elements.isEmpty && elements.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= 1 } }, "row \(key) accepted with an empty element or line < 1")
        // Boxes from lines 1, 3 and 4 of a label file (line 2 skipped): indices 0..<3 only.
        let mapped = file.elements(image: key, lines: [1, 3, 4]) ?? []
        precondition(mapped.allSatisfy { !$0.isEmpty && $0.allSatisfy((0..<3).contains) }, "element names a box that is not there")
    }
    // Keys with a tab or newline cannot be written back; the reader never yields them.
    precondition(file.rows.keys.allSatisfy { !$0.contains("\t") && !$0.contains("\n") && !$0.contains("\r") }, "key with a separator")
    guard let again = try? AccessibilityElementsFile.parse(file.tsv(), url: url) else { preconditionFailure("its own output does not read back") }
    precondition(again == file, "written and read back differs")
}

func folder(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
    let names = ["classes.txt", "data.yaml", "labels/a.txt", "splits/train.txt", "accessibility.tsv"]
    let fm = FileManager.default
    if !fm.fileExists(atPath: scratch.appendingPathComponent("images/a.png").path) {
        for folder in ["images", "labels", "splits"] {
            try! fm.createDirectory(at: scratch.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try! Data(png).write(to: scratch.appendingPathComponent("images/a.png"))
    }
    for (index, name) in names.enumerated() {
        let path = scratch.appendingPathComponent(name).path
        if index < parts.count, !(name == "splits/train.txt" && parts[index].isEmpty) {
            let part = parts[index]
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = part.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        } else {
            unlink(path)
        }
    }
    let issues = IssueCollector(strict: false)
    if let dataset = try? YOLOReader.read(scratch, issues: issues) {
        for sample in dataset.samples {
            precondition(sample.annotations.allSatisfy { dataset.classes.indices.contains($0.classIndex) }, "class index out of range")
            precondition((sample.accessibilityElements ?? []).allSatisfy { !$0.isEmpty && $0.allSatisfy(sample.annotations.indices.contains) },
                         "a true element names a box the sample does not have")
        }
        precondition(Set(dataset.classes).count == dataset.classes.count, "repeated class names accepted")
    }
}
