@testable import Kernels
import XCTest

/// The cache of large buffers under tensors' storage and the kernels' scratch (`BufferCache`).
/// Tensors' use of it is tested in TensorTests.
final class BufferCacheTests: XCTestCase {
    /// The kernels' scratch comes from the cache too: a large workspace freed is the next one of
    /// its size, and `zeroed` clears what the last user left.
    func testLargeWorkspacesAreReusedAndZeroedOnRequest() {
        let count = 1 << 17  // 512 KB: above the cache's minimum
        let first = Workspace(count: count)
        first.pointer.initialize(repeating: 9, count: count)
        let pointer = first.pointer
        first.free()
        let second = Workspace(count: count, zeroed: true)
        XCTAssertEqual(second.pointer, pointer, "a freed workspace of the same size is reused")
        XCTAssertTrue(UnsafeBufferPointer(start: second.pointer, count: count).allSatisfy { $0 == 0 })
        second.free()
        let small = Workspace(count: 16)
        XCTAssertEqual(Int(bitPattern: small.pointer) % 64, 0, "every workspace is 64-byte aligned")
        small.free()
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
        XCTAssertEqual(cache.workingSetBytes, 5 * floor, "every size's buffers are alive together at the peak")
        for _ in 0..<3 {
            let (hits, count) = step()
            XCTAssertEqual(hits, count, "every buffer of a repeated step is reused")
        }
        XCTAssertEqual(cache.cachedBytes, 5 * floor)
        XCTAssertEqual(cache.liveBytes, 0)
        cache.drain()
    }

    /// A step whose tensors are alive together (two of 4 units at its peak) while its scratch
    /// buffers (3, 2 and 1 units) are each alive alone, between them: the step needs 14 units of
    /// buffers, more than the 8 alive at once. Sized by the peak, the scratch evicted the tensors
    /// every step; sized by the working set, every buffer of the second step is reused.
    func testScratchAliveOneAtATimeIsPartOfTheWorkingSet() throws {
        let unit = 16 << 10
        let cache = BufferCache(minimumBytes: 1024, floorBytes: 1024)
        func take(_ size: Int, _ hits: inout Int) -> UnsafeMutableRawPointer {
            if let reused = cache.take(bytes: size) { hits += 1; return reused }
            return UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        }
        func give(_ pointer: UnsafeMutableRawPointer, _ size: Int) {
            if !cache.give(pointer, bytes: size) { pointer.deallocate() }
        }
        func step() -> Int {
            var hits = 0
            let first = take(4 * unit, &hits)
            for size in [3 * unit, 2 * unit, unit] { give(take(size, &hits), size) }
            let second = take(4 * unit, &hits)
            give(second, 4 * unit); give(first, 4 * unit)
            return hits
        }
        XCTAssertEqual(step(), 0)
        XCTAssertEqual(cache.peakLiveBytes, 8 * unit)
        XCTAssertEqual(cache.workingSetBytes, 14 * unit)
        XCTAssertEqual(step(), 5, "every buffer of the repeated step is reused")
        XCTAssertEqual(cache.cachedBytes, 14 * unit)
        cache.drain()
    }

    /// Sizes a step no longer asks for (another batch size) give way to the new ones, least
    /// recently used first, once the cache would hold more than twice the most bytes ever alive
    /// at once; the sizes still asked for are served from the cache.
    func testStaleSizesAreEvictedLeastRecentlyUsedFirst() throws {
        let unit = 16 << 10
        let cache = BufferCache(minimumBytes: 1024, floorBytes: 1024)
        func cycle(_ sizes: [Int]) -> Int {
            var hits = 0
            let buffers = sizes.map { size -> UnsafeMutableRawPointer in
                if let reused = cache.take(bytes: size) { hits += 1; return reused }
                return UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            }
            for (pointer, size) in zip(buffers, sizes) where !cache.give(pointer, bytes: size) { pointer.deallocate() }
            return hits
        }
        _ = cycle([2 * unit, 2 * unit])           // the old batch size: 4 units alive at once
        _ = cycle([3 * unit])                     // 7 units of buffers, within twice the peak
        XCTAssertEqual(cache.cachedBytes, 7 * unit)
        _ = cycle([5 * unit])                     // 12 units > twice the 5-unit peak: a 2-unit buffer goes
        XCTAssertEqual(cache.capacityBytes, 10 * unit)
        XCTAssertEqual(cache.cachedBytes, 10 * unit)
        XCTAssertEqual(cycle([5 * unit]), 1, "the new step is served from the cache")
        XCTAssertEqual(cycle([3 * unit]), 1)
        XCTAssertEqual(cycle([2 * unit, 2 * unit]), 1, "one of the two 2-unit buffers, freed longest ago, was evicted")
        cache.drain()
        XCTAssertEqual(cache.cachedBytes, 0)
    }

    /// Regression (bench train crashed at batch 8): taking the last cached buffer of a size left
    /// an empty list behind, and the next eviction read that list's first entry.
    func testEvictionAfterASizeWasTakenEmpty() throws {
        let unit = 16 << 10
        let cache = BufferCache(minimumBytes: 1024, floorBytes: 1024)
        var cached: [Int: UnsafeMutableRawPointer] = [:]
        for size in [unit, 4 * unit, 5 * unit] {       // each alive alone: 10 units of buffers, a 5-unit peak
            XCTAssertNil(cache.take(bytes: size))
            cached[size] = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
            XCTAssertTrue(cache.give(cached[size]!, bytes: size))
        }
        XCTAssertEqual(cache.take(bytes: unit), cached[unit])     // the 1-unit list is now empty
        XCTAssertNil(cache.take(bytes: 6 * unit))                // 7 units alive: the capacity is 14
        let z = UnsafeMutableRawPointer.allocate(byteCount: 6 * unit, alignment: 64)
        XCTAssertTrue(cache.give(z, bytes: 6 * unit), "4 + 5 + 6 units > 14: evicts the 4-unit buffer, past the empty list")
        XCTAssertNil(cache.take(bytes: 4 * unit), "the 4-unit buffer was evicted")
        XCTAssertEqual(cache.take(bytes: 5 * unit), cached[5 * unit])
        XCTAssertTrue(cache.give(cached[unit]!, bytes: unit))
        XCTAssertTrue(cache.give(cached[5 * unit]!, bytes: 5 * unit))
        XCTAssertLessThanOrEqual(cache.cachedBytes, cache.capacityBytes)
        cache.drain()
    }
}
