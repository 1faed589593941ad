import Kernels
@testable import Tensor
import XCTest

final class TensorTests: XCTestCase {
    func testCopyOnWriteKeepsValueSemantics() throws {
        let a = try Tensor(shape: [2, 2], values: [1, 2, 3, 4])
        var b = a
        b[flat: 0] = 9
        XCTAssertEqual(a.values, [1, 2, 3, 4])
        XCTAssertEqual(b.values, [9, 2, 3, 4])
        var c = a
        c.withUnsafeMutableBufferPointer { $0[3] = -1 }
        XCTAssertEqual(a.values, [1, 2, 3, 4])
        XCTAssertEqual(c.values, [1, 2, 3, -1])
    }

    func testUniquelyOwnedWriteDoesNotCopy() throws {
        var t = try Tensor(zeros: [4])
        let before = t.storage.pointer
        t.withUnsafeMutableBufferPointer { $0[0] = 1 }
        XCTAssertEqual(t.storage.pointer, before)
    }

    func testReshapeSharesStorageAndChecksCount() throws {
        let t = try Tensor(shape: [2, 3], values: [1, 2, 3, 4, 5, 6])
        let r = try t.reshaped([3, 2])
        XCTAssertEqual(r.values, t.values)
        XCTAssertTrue(r.storage === t.storage)
        XCTAssertThrowsError(try t.reshaped([4, 2])) { XCTAssertTrue("\($0)".contains("reshape")) }
        XCTAssertThrowsError(try Tensor(shape: [2, 2], values: [1])) { XCTAssertTrue("\($0)".contains("4 elements")) }
    }

    func testNegativeDimensionsThrowNamingTheInitializer() {
        for (make, op) in [({ try Tensor(zeros: [2, -3]) }, "Tensor(zeros:)"), ({ try Tensor(repeating: 1, shape: [2, -3]) }, "Tensor(repeating:shape:)"),
                           ({ try Tensor(shape: [2, -3], values: []) }, "Tensor(shape:values:)")] as [(() throws -> Tensor, String)] {
            XCTAssertThrowsError(try make()) { error in
                XCTAssertTrue("\(error)".contains(op) && "\(error)".contains("dimension 1 of shape [2, -3] is -3"), "\(error)")
            }
        }
        // [−1, −2] has a positive product: the sign check must be per dimension.
        XCTAssertThrowsError(try Tensor(shape: [-1, -2], values: [1, 2]))
        XCTAssertThrowsError(try Tensor(zeros: [Int.max, 4])) { XCTAssertTrue("\($0)".contains("too many elements"), "\($0)") }
        XCTAssertEqual(try Tensor(zeros: [0, 4]).count, 0, "empty tensors are fine")
    }

    func testStorageIsSixtyFourByteAligned() throws {
        for n in [1, 3, 100, 70_000] {
            XCTAssertEqual(Int(bitPattern: try Tensor(zeros: [n]).storage.pointer) % 64, 0)
        }
    }

    /// Large buffers start on a huge-page boundary (so MADV_HUGEPAGE can back them with 2 MB
    /// pages) and are usable to their last element; smaller ones keep the 64-byte alignment.
    func testLargeStorageSitsOnHugePageBoundaries() throws {
        let count = (BufferCache.hugePageBytes / 4) * 3 + 5 // 6 MB and a bit: not a whole number of huge pages
        let storage = TensorStorage(count: count)
        XCTAssertEqual(Int(bitPattern: storage.pointer) % BufferCache.hugePageBytes, 0)
        storage.pointer.initialize(repeating: 1.5, count: count)
        XCTAssertEqual(storage.pointer[count - 1], 1.5)
        let justBelow = TensorStorage(count: BufferCache.hugePageBytes / 4 - 1)
        XCTAssertEqual(Int(bitPattern: justBelow.pointer) % 64, 0)
    }

    func testBufferCacheReusesExactSizesAndZerosAreStillZero() throws {
        let n = 1 << 18 // 1 MB: above the cache's minimum
        var first: UnsafeMutablePointer<Float>?
        do {
            var t = try Tensor(repeating: 7, shape: [n])
            t.withUnsafeMutableBufferPointer { $0[0] = 3 }
            first = t.storage.pointer
        }
        let reused = try Tensor(zeros: [n])
        XCTAssertEqual(reused.storage.pointer, first, "a freed buffer of the same size is reused")
        XCTAssertTrue(reused.values.allSatisfy { $0 == 0 }, "reuse must not leak old values into zeros")
        XCTAssertNotEqual(try Tensor(zeros: [n + 16]).storage.pointer, first)
    }
}
