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
        let count = (TensorStorage.hugePageBytes / 4) * 3 + 5 // 6 MB and a bit: not a whole number of huge pages
        let storage = TensorStorage(count: count)
        XCTAssertEqual(Int(bitPattern: storage.pointer) % TensorStorage.hugePageBytes, 0)
        storage.pointer.initialize(repeating: 1.5, count: count)
        XCTAssertEqual(storage.pointer[count - 1], 1.5)
        let justBelow = TensorStorage(count: TensorStorage.hugePageBytes / 4 - 1)
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

    func testBufferCacheIsBoundedByItsFloorBeforeAnyWorkingSetIsKnown() throws {
        let cache = BufferCache(minimumBytes: 1024, floorBytes: 64 << 10)
        let size = cache.capacityBytes / 2 + 1
        let a = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        XCTAssertTrue(cache.give(a, bytes: size))
        XCTAssertTrue(cache.give(b, bytes: size), "the newer buffer is kept; the older one (a) is freed to make room")
        XCTAssertEqual(cache.cachedBytes, size)
        XCTAssertEqual(cache.take(bytes: size), b)
        XCTAssertNil(cache.take(bytes: size))
        b.deallocate()
        let tooLarge = UnsafeMutableRawPointer.allocate(byteCount: 2 * cache.capacityBytes, alignment: 64)
        XCTAssertFalse(cache.give(tooLarge, bytes: 2 * cache.capacityBytes), "larger than the capacity: the caller frees it")
        tooLarge.deallocate()
        XCTAssertNil(cache.take(bytes: 512), "small buffers are never cached")
    }

    /// A "step" whose working set is five times the floor: after the first step every buffer of
    /// the next steps comes from the cache (a fixed capacity would send four fifths back to
    /// malloc every step), and the cache never holds more than the working set.
    func testBufferCacheGrowsToTheWorkingSetOfAStep() throws {
        let floor = 64 << 10
        let cache = BufferCache(minimumBytes: 1024, floorBytes: floor)
        let sizes = [floor, floor / 2, floor / 2, floor, floor, floor / 4, floor / 4, floor / 2]  // 5 × floor in all
        func step() -> (hits: Int, count: Int) {
            var hits = 0
            let buffers = sizes.map { size -> (UnsafeMutableRawPointer, Int) in
                if let reused = cache.take(bytes: size) { hits += 1; return (reused, size) }
                return (UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64), size)
            }
            for (pointer, size) in buffers where !cache.give(pointer, bytes: size) { pointer.deallocate() }
            return (hits, buffers.count)
        }
        XCTAssertEqual(step().hits, 0)
        XCTAssertEqual(cache.peakLiveBytes, 5 * floor)
        for _ in 0..<3 {
            let (hits, count) = step()
            XCTAssertEqual(hits, count, "every buffer of a repeated step is reused")
        }
        XCTAssertEqual(cache.cachedBytes, 5 * floor)
        XCTAssertEqual(cache.liveBytes, 0)
        cache.drain()
    }

    /// Sizes a step no longer asks for (another batch size) give way to the new ones, least
    /// recently used first, so the cache stays within its capacity and serves the new step.
    func testStaleSizesAreEvictedLeastRecentlyUsedFirst() throws {
        let unit = 16 << 10
        let cache = BufferCache(minimumBytes: 1024, floorBytes: 4 * unit)
        func cycle(_ sizes: [Int]) -> Int {
            var hits = 0
            let buffers = sizes.map { size -> UnsafeMutableRawPointer in
                if let reused = cache.take(bytes: size) { hits += 1; return reused }
                return UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            }
            for (pointer, size) in zip(buffers, sizes) where !cache.give(pointer, bytes: size) { pointer.deallocate() }
            return hits
        }
        _ = cycle([unit, unit, 2 * unit])         // the old batch size: 4 units cached
        XCTAssertEqual(cache.cachedBytes, 4 * unit)
        _ = cycle([3 * unit, unit])                // a new size: the buffers freed longest ago go first
        XCTAssertLessThanOrEqual(cache.cachedBytes, cache.capacityBytes)
        XCTAssertEqual(cycle([3 * unit, unit]), 2, "the new step is served from the cache")
        cache.drain()
        XCTAssertEqual(cache.cachedBytes, 0)
    }

    /// Regression (bench train crashed at batch 8): taking the last cached buffer of a size left
    /// an empty list behind, and the next eviction read that list's first entry.
    func testEvictionAfterASizeWasTakenEmpty() throws {
        let unit = 16 << 10
        let cache = BufferCache(minimumBytes: 1024, floorBytes: 1024)
        XCTAssertNil(cache.take(bytes: unit)); XCTAssertNil(cache.take(bytes: 2 * unit))  // 3 units live: the capacity
        let x = UnsafeMutableRawPointer.allocate(byteCount: unit, alignment: 64)
        let y = UnsafeMutableRawPointer.allocate(byteCount: 2 * unit, alignment: 64)
        XCTAssertTrue(cache.give(x, bytes: unit)); XCTAssertTrue(cache.give(y, bytes: 2 * unit))
        XCTAssertEqual(cache.take(bytes: unit), x)                  // the 1-unit list is now empty
        XCTAssertNil(cache.take(bytes: 3 * unit / 2))               // 2.5 units live
        let z = UnsafeMutableRawPointer.allocate(byteCount: 3 * unit / 2, alignment: 64)
        XCTAssertTrue(cache.give(z, bytes: 3 * unit / 2), "2 + 1.5 units > 3: evicts y, past the empty list")
        XCTAssertNil(cache.take(bytes: 2 * unit), "y was evicted")
        XCTAssertTrue(cache.give(x, bytes: unit))
        XCTAssertLessThanOrEqual(cache.cachedBytes, cache.capacityBytes)
        cache.drain()
    }
}
