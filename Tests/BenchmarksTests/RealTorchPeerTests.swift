import Benchmarks
import XCTest

/// The JSON lines of Peers/torch-peer/train_step_bench.py and ui_detector.py --shapes, read
/// without Python (the lines below are what the scripts print).
final class RealTorchPeerTests: XCTestCase {
    let output = """
    torch 2.15.0+cu132, threads=2, interop=2, mkldnn=True
    [NCHW] real train step batch 8 (fwd + ATSS + QFL/GIoU/DFL + bwd + clip + AdamW + EMA): median 0.650 s, min 0.610 s -> 12.3 img/s (loss first 2.507, last 2.434)
    {"peer": "torch-ui-detector", "layout": "NCHW", "batch": 8, "threads": 2, "classes": 14, "parameters": 1031690, "boxes_per_image": 35, "positives_per_image": 257.75, "steps": 6, "median_s": 0.65, "min_s": 0.61, "img_per_s": 12.308, "loss_first": 2.50729, "loss_last": 2.43443, "torch": "2.15.0+cu132"}
    [channels_last] real train step batch 8 (...): median 0.500 s, min 0.480 s -> 16.0 img/s (loss first 2.507, last 2.436)
    {"peer": "torch-ui-detector", "layout": "channels_last", "batch": 8, "threads": 2, "classes": 14, "parameters": 1031690, "boxes_per_image": 35, "positives_per_image": 257.75, "steps": 6, "median_s": 0.5, "min_s": 0.48, "img_per_s": 16.0, "loss_first": 2.50729, "loss_last": 2.43563, "torch": "2.15.0+cu132"}
    """

    func testReadsOneMeasurementPerLayout() throws {
        let measurements = try RealTorchPeer.parse(output)
        XCTAssertEqual(Set(measurements.keys), ["NCHW", "channels_last"])
        let nchw = try XCTUnwrap(measurements["NCHW"])
        XCTAssertEqual(nchw.imagesPerSecond, 12.308)
        XCTAssertEqual(nchw.medianSeconds, 0.65)
        XCTAssertEqual(nchw.batch, 8)
        XCTAssertEqual(nchw.threads, 2)
        XCTAssertEqual(nchw.classes, 14)
        XCTAssertEqual(nchw.parameters, 1_031_690)
        XCTAssertEqual(nchw.boxesPerImage, 35)
        XCTAssertEqual(nchw.positivesPerImage, 257.75)
        XCTAssertEqual(nchw.steps, 6)
        XCTAssertEqual(measurements["channels_last"]?.imagesPerSecond, 16.0)
    }

    func testSkipsOtherLinesAndOtherJSON() throws {
        XCTAssertTrue(try RealTorchPeer.parse("torch 2.15\n{\"something\": 1}\n[NCHW] train step batch 8 -> 12.7 img/s\n").isEmpty)
    }

    func testAPeerLineThatDoesNotDecodeThrows() {
        XCTAssertThrowsError(try RealTorchPeer.parse(#"{"peer": "torch-ui-detector", "layout": "NCHW", "img_per_s": "fast"}"#))
    }

    func testShapesAndTheirDifferences() throws {
        let shapes = try RealTorchPeer.parseShapes("""
        ui-detector, 13 classes: 1031495 parameters (4.13 MB fp32)
        {"peer": "torch-ui-detector", "classes": 13, "parameters": 1031495, "shapes": {"backbone.stem.weight": [16, 3, 3, 3], "backbone.stem.bn.running_mean": [16], "head.outputs.0.bias": [77]}}
        """)
        XCTAssertEqual(shapes["backbone.stem.weight"], [16, 3, 3, 3])
        let ours: [(name: String, shape: [Int])] = [("backbone.stem.weight", [16, 3, 3, 3]), ("backbone.stem.bn.running_mean", [16]), ("head.outputs.0.bias", [77])]
        XCTAssertEqual(RealTorchPeer.differences(peer: shapes, screenLab: ours), [])
        let other: [(name: String, shape: [Int])] = [("backbone.stem.weight", [16, 3, 3, 3]), ("head.outputs.0.bias", [78]), ("fpn.lateral.0.weight", [64, 128, 1, 1])]
        XCTAssertEqual(RealTorchPeer.differences(peer: shapes, screenLab: other), [
            "head.outputs.0.bias: ScreenLab [78], peer [77]",
            "fpn.lateral.0.weight [64, 128, 1, 1]: missing in the peer",
            "backbone.stem.bn.running_mean [16]: only in the peer",
        ])
        XCTAssertThrowsError(try RealTorchPeer.parseShapes("no json here"))
    }
}
