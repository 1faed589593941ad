import Foundation
import Tensor
import XCTest
@testable import Imaging

final class TensorConversionTests: XCTestCase {
    /// 2×1 image: (255, 0, 51) and (128, 255, 0).
    private let image = RGBImage(width: 2, height: 1, pixels: [255, 0, 51, 128, 255, 0])

    func testUnitNormalizationIsPlanarOverTwoFiftyFive() {
        let tensor = image.tensor(normalization: .unit)
        XCTAssertEqual(tensor.shape, [1, 3, 1, 2])
        let expected: [Float] = [1, 128.0 / 255, 0, 1, 0.2, 0]
        for (got, want) in zip(tensor.values, expected) { XCTAssertEqual(got, want, accuracy: 1e-6) }
    }

    func testImageNetNormalizationHandComputed() {
        let values = image.tensor(normalization: .imagenet).values
        // R plane: (1 − 0.485)/0.229 = 2.248908…, (128/255 − 0.485)/0.229 = 0.074065…
        // G plane: (0 − 0.456)/0.224 = −2.035714…, (1 − 0.456)/0.224 = 2.428571…
        // B plane: (0.2 − 0.406)/0.225 = −0.915556…, (0 − 0.406)/0.225 = −1.804444…
        let expected: [Float] = [2.2489083, 0.0740645, -2.0357143, 2.4285714, -0.9155556, -1.8044444]
        for (got, want) in zip(values, expected) { XCTAssertEqual(got, want, accuracy: 1e-5) }
    }

    func testWriteCHWIntoABatchSlot() {
        var batch = [Float](repeating: -7, count: 2 * 6 + 1)
        batch.withUnsafeMutableBufferPointer { image.writeCHW(into: $0.baseAddress! + 6, normalization: .unit) }
        XCTAssertEqual(Array(batch[0..<6]), [Float](repeating: -7, count: 6), "first slot untouched")
        XCTAssertEqual(batch[6], 1); XCTAssertEqual(batch[12], -7, "nothing written past the item")
    }

    func testRoundTripThroughTensorIsExact() throws {
        var random = SplitMix(seed: 3)
        let pixels = (0..<(17 * 11 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let source = RGBImage(width: 17, height: 11, pixels: pixels)
        for normalization in [PixelNormalization.unit, .imagenet] {
            XCTAssertEqual(try RGBImage(tensor: source.tensor(normalization: normalization), normalization: normalization), source)
        }
    }

    func testTensorToImageClampsAndPicksBatchItem() throws {
        // Two items of 1×2; item 1 holds out-of-range and NaN values.
        let tensor = try Tensor(shape: [2, 3, 1, 2], values: [0, 0, 0, 0, 0, 0,
                                                              -0.5, 2, 0.5, .nan, 1, 0.2])
        let picture = try RGBImage(tensor: tensor, batchIndex: 1, normalization: .unit)
        XCTAssertEqual(pixelRows(picture), [[RGB(0, 128, 255), RGB(255, 0, 51)]])
        XCTAssertThrowsError(try RGBImage(tensor: tensor, batchIndex: 2, normalization: .unit))
        XCTAssertThrowsError(try RGBImage(tensor: Tensor(zeros: [1, 4, 2, 2]), normalization: .unit))
        let planar = try RGBImage(tensor: Tensor(repeating: 1, shape: [3, 2, 2]), normalization: .unit)
        XCTAssertEqual(planar, RGBImage(width: 2, height: 2, fill: RGB(255, 255, 255)))
    }

    func testNormalizationDecodingRejectsBadValuesNamingTheKey() throws {
        let good = try JSONDecoder().decode(PixelNormalization.self, from: Data(#"{"mean":[0.5,0.5,0.5],"std":[0.25,0.25,0.25]}"#.utf8))
        XCTAssertEqual(good.mean, [0.5, 0.5, 0.5])
        XCTAssertEqual(try JSONDecoder().decode(PixelNormalization.self, from: JSONEncoder().encode(PixelNormalization.imagenet)), .imagenet)
        for (json, key) in [(#"{"mean":[0.5,0.5],"std":[1,1,1]}"#, "mean"), (#"{"mean":[0,0,0],"std":[1,0,1]}"#, "std")] {
            XCTAssertThrowsError(try JSONDecoder().decode(PixelNormalization.self, from: Data(json.utf8))) { error in
                XCTAssertTrue("\(error)".contains(key), "\(error)")
            }
        }
    }
}
