import Autograd
import Detection
import Tensor
import XCTest

final class DetectorValidationTests: XCTestCase {
    func testInvalidConfigurationsAndInputsThrowNamingTheField() throws {
        let cases: [(DetectorConfiguration, String)] = [
            (DetectorConfiguration(classCount: 0), "classCount"),
            (DetectorConfiguration(anchorsPerCell: -1), "anchorsPerCell"),
            (DetectorConfiguration(widthMultiplier: 0.01), "widthMultiplier"),
            (DetectorConfiguration(fpnChannels: 0), "fpnChannels"),
        ]
        for (configuration, field) in cases {
            XCTAssertThrowsError(try ReferenceDetector(configuration: configuration)) { XCTAssertTrue("\($0)".contains(field), "\($0)") }
        }
        let model = try ReferenceDetector(configuration: DetectorConfiguration(inputHeight: 64, inputWidth: 32))
        XCTAssertThrowsError(try model(Tape.noGradient().constant(try Tensor(zeros: [1, 3, 48, 32])))) { error in
            XCTAssertTrue("\(error)".contains("ReferenceDetector") && "\(error)".contains("[1, 3, 48, 32]"), "\(error)")
        }
    }
}
