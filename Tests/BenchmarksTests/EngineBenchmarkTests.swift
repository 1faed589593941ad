import Autograd
import Benchmarks
import Detection
import NN
import Tensor
import XCTest

/// What `bench engine` prints comes from the Benchmarks library: the layer-type profile and the 1×1 shapes.
final class EngineBenchmarkTests: XCTestCase {
    /// The reference detector's layer types, each with its ops per training step (batch 2, 64×32 input).
    func testProfileIsPerLayerTypeOfTheReferenceDetector() throws {
        let bench = try EngineBenchmark(configuration: DetectorConfiguration(inputHeight: 64, inputWidth: 32), batch: 2)
        let timings = try bench.profileLayers(steps: 1)
        let calls = Dictionary(uniqueKeysWithValues: timings.map { ($0.label, $0.calls) })
        XCTAssertEqual(calls, [
            "stem 3×3 s2": 1,
            // 27 batch norms (+ ReLU6, fused): after the stem and each of 13 depthwise + 13 pointwise
            // convs. The 11 that feed a depthwise layer inside a stage run as one op with it and its
            // own batch norm; the stage outputs (read by the FPN) are normalised apart, and stage4's
            // and stage5's first depthwise layers read them.
            "BN+ReLU6": 5,
            "BN+ReLU6 → depthwise 3×3 s1 → BN+ReLU6": 9,
            "BN+ReLU6 → depthwise 3×3 s2 → BN+ReLU6": 2,
            "depthwise 3×3 s2": 2,
            "pointwise 1×1": 13,
            "FPN lateral 1×1": 3,
            "FPN upsample+add": 4,      // 2 upsamples + 2 adds
            "FPN output 3×3": 3,
            "head 3×3 + ReLU": 6,       // shared head on 3 levels: conv + ReLU each
            "head output 3×3": 3,
            EngineBenchmark.lossLabel: 5, // 3 Σx² + 2 adds
        ])
        XCTAssertEqual(timings.first?.label, "stem 3×3 s2", "rows in forward order")
        for t in timings {
            XCTAssertGreaterThan(t.forwardMilliseconds, 0, t.label)
            XCTAssertGreaterThan(t.backwardMilliseconds, 0, t.label)
        }
        let table = LayerTimingTable.render(timings)
        XCTAssertTrue(table.contains("depthwise 3×3 s2") && table.contains("total"), table)
    }

    /// The GEMM benchmark's shapes are read from the model; these are the 1×1 convolutions of
    /// detector.py at 512×256: MobileNetV1-0.5 pointwise convs, then the FPN laterals.
    func testPointwiseShapesComeFromTheModel() throws {
        let shapes = try ReferenceDetector().pointwiseConvolutionShapes().map { [$0.inChannels, $0.outChannels, $0.height, $0.width] }
        XCTAssertEqual(shapes, [
            [16, 32, 256, 128], [32, 64, 128, 64], [64, 64, 128, 64], [64, 128, 64, 32], [128, 128, 64, 32],
            [128, 256, 32, 16], [256, 256, 32, 16], [256, 512, 16, 8], [512, 512, 16, 8],
            [128, 64, 64, 32], [256, 64, 32, 16], [512, 64, 16, 8],
        ])
    }

    /// `bench engine`'s weight-gradient table: one row per 1×1 shape of the model, sgemm and both
    /// direct routes timed, the routes' bits compared, the row naming its shape and the ratios
    /// (64×32 input, batch 2: a few milliseconds).
    func testWeightGradientRowsTimeBothPathsForEveryPointwiseShape() throws {
        let configuration = DetectorConfiguration(inputHeight: 64, inputWidth: 32)
        let rows = try WeightGradientBenchmark.run(configuration: configuration, batch: 2, repetitions: 1)
        XCTAssertEqual(rows.map(\.shape), try ReferenceDetector(configuration: configuration).pointwiseConvolutionShapes())
        for row in rows {
            XCTAssertGreaterThan(row.sgemmMilliseconds, 0, "\(row.shape)")
            XCTAssertGreaterThan(row.directMilliseconds, 0, "\(row.shape)")
            XCTAssertGreaterThan(row.laneMajorMilliseconds, 0, "\(row.shape)")
            XCTAssertTrue(row.routesAgree, "the direct path's two routes give the same bits: \(row.shape)")
            XCTAssertTrue(row.description.hasPrefix(row.shape.description) && row.description.hasSuffix("×"), row.description)
        }
    }

    /// `bench engine`'s 3×3 table: both weight gradients timed per layer, their largest relative
    /// difference small (the transforms round otherwise, nothing more), the row naming its layer.
    func testWinogradWeightGradientRowsTimeBothKernels() throws {
        let layers = [(channels: 8, height: 8, width: 6), (channels: 16, height: 5, width: 7)]
        let rows = try Winograd3x3WeightGradientBenchmark.run(batch: 2, repetitions: 1, layers: layers)
        XCTAssertEqual(rows.map { [$0.channels, $0.height, $0.width] }, layers.map { [$0.channels, $0.height, $0.width] })
        for row in rows {
            XCTAssertGreaterThan(row.directMilliseconds, 0, row.description)
            XCTAssertGreaterThan(row.winogradMilliseconds, 0, row.description)
            XCTAssertLessThan(row.relativeDifference, 1e-5, row.description)
            XCTAssertTrue(row.description.hasPrefix("2, \(row.channels)→\(row.channels) at \(row.height)×\(row.width)"), row.description)
        }
    }

    func testBatchTooSmallForTrainModeBatchNormThrows() {
        XCTAssertThrowsError(try EngineBenchmark(batch: 1)) { XCTAssertTrue("\($0)".contains("batch is 1"), "\($0)") }
    }
}
