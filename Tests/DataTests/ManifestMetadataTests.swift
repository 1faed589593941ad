import Foundation
import XCTest
@testable import Data

/// manifest.tsv's other columns (vins-ui's `source`) reach the samples, and `partitioned(where:)`
/// selects screens by them (`evaluate --where source=vins_iphone`).
final class ManifestMetadataTests: XCTestCase {
    let url = URL(fileURLWithPath: "/data/manifest.tsv")

    func testOtherColumnsAreKeptByName() throws {
        let text = "image\tsource\twidth\theight\tgroup\tsplit\na.png\tvins_iphone\t10\t20\tapp1\ttest\nb.png\tvins_rico\t30\t40\t\ttrain\n"
        let manifest = try XCTUnwrap(try ImageManifest.parse(text, url: url))
        XCTAssertEqual(manifest.rows["a.png"], ImageManifest.Row(width: 10, height: 20, group: "app1", columns: ["source": "vins_iphone", "split": "test"]))
        XCTAssertEqual(manifest.rows["b.png"]?.columns, ["source": "vins_rico", "split": "train"])
        XCTAssertNil(manifest.rows["b.png"]?.group)
        XCTAssertEqual(try XCTUnwrap(try ImageManifest.parse("image\twidth\theight\na.png\t1\t1\n", url: url)).rows["a.png"]?.columns, [:])
    }

    func testPartitionByMetadata() throws {
        func screen(_ id: String, _ source: String?) -> Sample {
            Sample(id: id, imagePath: "\(id).png", width: 10, height: 10, metadata: source.map { ["source": $0, "split": "test"] })
        }
        let dataset = Dataset(root: URL(fileURLWithPath: "/data"), classes: ["Text"],
                              samples: [screen("a", "vins_iphone"), screen("b", "vins_rico"), screen("c", nil), screen("d", "vins_iphone")])
        let (kept, rest) = try dataset.partitioned(where: [("source", "vins_iphone")])
        XCTAssertEqual(kept.map(\.id), ["a", "d"])
        XCTAssertEqual(rest.map(\.id), ["b", "c"])
        XCTAssertEqual(try dataset.partitioned(where: [("source", "vins_iphone"), ("split", "train")]).kept, [])
        XCTAssertThrowsError(try dataset.partitioned(where: [("sorce", "vins_iphone")])) { error in
            XCTAssertEqual("\(error)", "no image has a 'sorce' column in the dataset's manifest.tsv; the columns are: source, split")
        }
    }
}
