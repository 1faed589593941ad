// libFuzzer entry point for the COCO readers: `sh Fuzz/fuzz.sh coco [runs] [seconds]`.
// Each input is read as a COCO instances JSON (ground truth: decoded, then turned into a dataset
// leniently and strictly) and as a COCO results file scored against a small fixed dataset.
// Invariants: an accepted ground-truth file has unique class names, image sizes in bounds and
// finite boxes, and writes back (COCOWriter) to a file that reads to the same classes and boxes;
// a results file's entries are all accounted for (kept + skipped + outside the split).
import Evaluation
import Foundation
import Support
@testable import Data

let jsonURL = URL(fileURLWithPath: "/nonexistent/fuzz/instances.json")
let samples = [Sample(id: "s1", imagePath: "images/s1.png", width: 40, height: 20, cocoImageID: 17),
               Sample(id: "s2", imagePath: "images/s2.png", width: 30, height: 30, cocoImageID: 4)]
let results = COCOResultsReader(samples: [samples[0]], cocoImageIDs: [17], classNames: ["Text", "Icon", "Toggle"],
                                cocoCategoryIDs: [3, 7, 10], outsideSplit: [samples[1]], splitName: "val")
let namedResults = COCOResultsReader(samples: samples, cocoImageIDs: [nil, nil], classNames: ["Text", "Icon"], cocoCategoryIDs: nil)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    groundTruth(bytes)
    for reader in [results, namedResults] {
        if let set = try? reader.parse(bytes, file: "results.json", lenient: true) {
            precondition(set.predictions.count + set.skippedCount + set.outsideSplit == set.entries, "results entries not accounted for")
            precondition(set.predictions.allSatisfy { $0.score >= 0 && $0.score <= 1 && $0.box.width >= 0 }, "a bad prediction was kept")
        }
        _ = try? reader.parse(bytes, file: "results.json", lenient: false)
    }
    return 0
}

func groundTruth(_ bytes: Data) {
    guard let file = try? COCOFile(json: bytes, file: "instances.json") else { return }
    _ = try? COCOReader.dataset(from: file, url: jsonURL, issues: IssueCollector(strict: false), checkImages: false)
    guard let dataset = try? COCOReader.dataset(from: file, url: jsonURL, issues: IssueCollector(strict: true), checkImages: false) else { return }
    precondition(Set(dataset.classes).count == dataset.classes.count, "two classes of one name accepted")
    precondition(dataset.samples.allSatisfy { ImageSizeLimits.contains(width: $0.width, height: $0.height) }, "image size out of bounds accepted")
    let boxes = dataset.samples.flatMap(\.annotations).map(\.box)
    precondition(boxes.allSatisfy { [$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) }, "a non-finite box accepted")
    _ = DatasetStats.compute(dataset)
    guard let written = try? COCOWriter.encode(dataset, relativeTo: jsonURL.deletingLastPathComponent()) else { return }
    guard let again = try? COCOReader.dataset(from: COCOFile(json: written, file: "again.json"), url: jsonURL,
                                              issues: IssueCollector(strict: true), checkImages: false) else {
        preconditionFailure("the COCO reader refused what the writer wrote")
    }
    precondition(again.classes == dataset.classes, "classes changed in a round trip")
    precondition(again.samples.map { $0.annotations.map(\.box) } == dataset.samples.map { $0.annotations.map(\.box) }, "boxes changed in a round trip")
}
