import ArgumentParser

/// A problem with the input (a file, its contents, a dataset): ArgumentParser prints
/// `Error: <message>` and exits 1, without the usage text, because the arguments were fine.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Prints an error a user can act on and exits 1 (no stack trace, no crash, no usage text).
func failure(_ message: String) -> CommandFailure { CommandFailure(description: message) }

/// A bad argument: ArgumentParser prints the message with the usage line and exits 64 (EX_USAGE).
func usageError(_ message: String) -> ValidationError { ValidationError(message) }

/// Bounds shared by numeric options: beyond them a value is a typo or an attack, not a request
/// (issue 15's sweep: `--threads 4294967297` aborted creating threads, `--batch 4294967297`
/// aborted allocating, `--seconds inf` trapped converting to an integer).
enum OptionBounds {
    static let threads = 1...64
    static let workers = 0...64
    static let batch = 1...512
    static let steps = 1...100_000
    static let rounds = 1...1_000
    static let runs = 1...100_000
    /// A day.
    static let seconds = 0.001...86_400.0

    static func check<T: Comparable>(_ option: String, _ value: T, _ range: ClosedRange<T>) throws {
        guard range.contains(value) else {
            throw usageError("--\(option) must lie in \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
    }
}

/// "256x512" (or "256X512") as (width, height); nil unless two whole numbers joined by one x.
/// Callers check the bounds their option allows.
func parsePixelSize(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
    return (width, height)
}
