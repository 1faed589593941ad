import XCTest
@testable import Kernels

/// The choice of micro-kernel: never one the CPU cannot run, whatever the environment says.
/// (That both kernels give the same bits is checked for every dense kernel's shapes by
/// `DenseKernelCheck`.)
final class VectorISATests: XCTestCase {
    func testUnsetPicksTheWidestSupported() {
        XCTAssertEqual(VectorISA.choice(asked: nil, supported: [.avx2, .avx512]).0, .avx512)
        XCTAssertNil(VectorISA.choice(asked: nil, supported: [.avx2, .avx512]).warning)
        XCTAssertEqual(VectorISA.choice(asked: nil, supported: [.avx2]).0, .avx2)
    }

    func testANamedSupportedSetIsUsedInAnyCase() {
        XCTAssertEqual(VectorISA.choice(asked: "AVX2", supported: [.avx2, .avx512]).0, .avx2)
        XCTAssertNil(VectorISA.choice(asked: "avx2", supported: [.avx2, .avx512]).warning)
    }

    func testAnUnsupportedOrUnknownNameIsRefusedWithTheReason() throws {
        let (isa, warning) = VectorISA.choice(asked: "avx512", supported: [.avx2])
        XCTAssertEqual(isa, .avx2)
        XCTAssertEqual(warning, "SCREENLAB_VECTOR_ISA=avx512: this CPU runs avx2; using avx2")
        let unknown = VectorISA.choice(asked: "neon", supported: [.avx2, .avx512])
        XCTAssertEqual(unknown.0, .avx512)
        XCTAssertEqual(unknown.warning, "SCREENLAB_VECTOR_ISA=neon: this CPU runs avx2 or avx512; using avx512")
    }

    func testUseRefusesWhatTheCPULacks() {
        let measured = VectorISA.current
        defer { VectorISA.use(measured) }
        XCTAssertTrue(VectorISA.supported.contains(.avx2))
        XCTAssertTrue(VectorISA.use(.avx2))
        XCTAssertEqual(VectorISA.current, .avx2)
        XCTAssertEqual(VectorISA.use(.avx512), VectorISA.supported.contains(.avx512))
        XCTAssertEqual(VectorISA.current, VectorISA.supported.contains(.avx512) ? .avx512 : .avx2)
    }
}
