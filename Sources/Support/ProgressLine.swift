import Foundation

/// A single, self-overwriting progress line on standard error: done/total, rate and ETA.
/// Redraws at most every `interval` seconds so hot loops can call `advance` freely. When
/// standard error is not a terminal (a CI log, a file) it prints plain lines instead, at most
/// one every 10 seconds plus the last, so logs stay readable.
public final class ProgressLine {
    private let label: String
    private let total: Int
    private let unit: String
    private let interval: Double
    /// Seconds since the line started; tests pass a fake clock.
    private let secondsSinceStart: () -> Double
    /// Elapsed seconds at the last draw (the first `advance` always draws).
    private var lastDraw = -Double.infinity
    private let enabled: Bool
    private let isTerminal: Bool
    private let write: (String) -> Void
    /// A drawn line not yet ended with a newline: closed in deinit, so an error thrown
    /// mid-way prints on its own line instead of after the progress text.
    private var lineOpen = false
    /// `done` at the last plain line (non-terminal), so `finish` does not repeat it.
    private var lastLoggedDone = -1
    public private(set) var done = 0
    /// Work done before this line started (a resumed epoch): counted in done/total and the
    /// percentage, but not in the rate, which would otherwise claim the skipped part took no time.
    private var doneBeforeStart = 0

    /// `isTerminal` and `write` default to standard error; tests pass their own.
    public convenience init(_ label: String, total: Int, unit: String = "items", interval: Double = 0.25, enabled: Bool = true,
                isTerminal: Bool = isatty(STDERR_FILENO) != 0,
                write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        let clock = Stopwatch()
        self.init(label, total: total, unit: unit, interval: interval, enabled: enabled, isTerminal: isTerminal,
                  write: write, secondsSinceStart: { clock.seconds })
    }

    init(_ label: String, total: Int, unit: String, interval: Double, enabled: Bool, isTerminal: Bool,
         write: @escaping (String) -> Void, secondsSinceStart: @escaping () -> Double) {
        self.secondsSinceStart = secondsSinceStart
        self.label = label
        self.total = total
        self.unit = unit
        self.isTerminal = isTerminal
        self.interval = isTerminal ? interval : max(interval, 10)
        self.enabled = enabled
        self.write = write
    }

    public var elapsedSeconds: Double { secondsSinceStart() }

    /// Marks `n` items as done earlier (before a resume), without drawing or counting them in the rate.
    public func resume(at n: Int) {
        precondition(done == 0, "resume(at:) comes before the first advance")
        done = n
        doneBeforeStart = n
    }

    public func advance(by n: Int = 1, detail: String = "") {
        done += n
        let now = secondsSinceStart()
        if enabled, done == total || now - lastDraw >= interval {
            lastDraw = now
            draw(detail: detail)
        }
    }

    public func finish(detail: String = "") {
        guard enabled else { return }
        if isTerminal {
            draw(detail: detail)
            write("\n")
        } else if done != lastLoggedDone || !detail.isEmpty {
            draw(detail: detail)
        }
        lineOpen = false
    }

    deinit {
        if lineOpen { write("\n") }
    }

    private func draw(detail: String) {
        let elapsed = max(elapsedSeconds, 1e-9)
        let rate = Double(done - doneBeforeStart) / elapsed
        let remaining = rate > 0 ? Double(total - done) / rate : .infinity
        let percent = total > 0 ? 100 * Double(done) / Double(total) : 100
        var line = String(format: "\r%@ %d/%d (%.0f%%) %.1f %@/s, elapsed %@, ETA %@", label, done, total, percent, rate, unit,
                          ProgressLine.clock(elapsed), ProgressLine.clock(remaining))
        if !detail.isEmpty { line += "  " + detail }
        if isTerminal {
            write(line + "\u{1B}[K")
            lineOpen = true
        } else {
            write(line.dropFirst() + "\n")
            lastLoggedDone = done
        }
    }

    public static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%02d:%02d", s / 60, s % 60)
    }
}
