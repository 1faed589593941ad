import XCTest
@testable import Support

final class ProgressLineTests: XCTestCase {
    /// Collects what a progress line writes.
    final class Sink { var text = "" }

    func testTerminalRedrawsInPlaceAndEndsTheLine() {
        let sink = Sink()
        let progress = ProgressLine("read", total: 3, unit: "images", interval: 0, isTerminal: true) { sink.text += $0 }
        for _ in 0..<3 { progress.advance() }
        progress.finish()
        XCTAssertEqual(sink.text.filter { $0 == "\r" }.count, 4, "three advances and the finish redraw in place")
        XCTAssertTrue(sink.text.contains("read 3/3 (100%)"))
        XCTAssertTrue(sink.text.hasSuffix("\u{1B}[K\n"))
    }

    func testALogGetsPlainLinesWithoutRepeats() {
        let sink = Sink()
        let progress = ProgressLine("read", total: 1000, unit: "images", interval: 0, isTerminal: false) { sink.text += $0 }
        for _ in 0..<1000 { progress.advance() }
        progress.finish()
        XCTAssertFalse(sink.text.contains("\r") || sink.text.contains("\u{1B}"), "no terminal control characters in a log")
        let lines = sink.text.split(separator: "\n")
        // The first advance prints at once, then at most one line per 10 s, then the last; finish adds nothing new.
        XCTAssertEqual(lines.count, 2, sink.text)
        XCTAssertTrue(lines.first?.hasPrefix("read 1/1000 ") ?? false)
        XCTAssertTrue(lines.last?.hasPrefix("read 1000/1000 (100%)") ?? false)
    }

    func testAnUnfinishedLineIsClosedWhenTheProgressGoesAway() {
        let sink = Sink()
        do {
            let progress = ProgressLine("hash", total: 10, interval: 0, isTerminal: true) { sink.text += $0 }
            progress.advance()  // an error thrown here would leave the line open
        }
        XCTAssertTrue(sink.text.hasSuffix("\n"), "the next message (an error) starts on its own line")
    }

    func testAResumedLineCountsTheSkippedPartButNotInItsRate() {
        let sink = Sink()
        var now = 0.0
        let progress = ProgressLine("epoch", total: 100, unit: "batches", interval: 0, enabled: true, isTerminal: false,
                                    write: { sink.text += $0 }, secondsSinceStart: { now })
        progress.resume(at: 80)
        XCTAssertEqual(sink.text, "", "resuming draws nothing by itself")
        now = 4
        progress.advance(by: 2)
        // 2 batches in 4 s since the resume: 0.5/s, and 18 left take 36 s — not 82/4 = 20.5/s and 1 s.
        XCTAssertEqual(sink.text, "epoch 82/100 (82%) 0.5 batches/s, elapsed 00:04, ETA 00:36\n")
    }
}
