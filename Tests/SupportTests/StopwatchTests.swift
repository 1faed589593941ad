import XCTest
import Support

final class StopwatchTests: XCTestCase {
    /// Laps split the time without losing or double-counting any of it.
    func testLapsCoverTheirSleepsAndSumToAtMostTheWhole() {
        let outer = Stopwatch()
        var laps = Stopwatch()
        usleep(20_000)
        let first = laps.lap()
        usleep(20_000)
        let second = laps.lap()
        let whole = outer.seconds
        XCTAssertGreaterThanOrEqual(first, 0.02)
        XCTAssertGreaterThanOrEqual(second, 0.02)
        XCTAssertLessThanOrEqual(first + second, whole)
    }
}
