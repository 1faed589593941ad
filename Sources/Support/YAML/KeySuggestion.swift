/// "Did you mean …?": the known word at the smallest edit distance, if it is close enough to
/// be a typo (at most a third of the word's letters changed, or two).
public enum KeySuggestion {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        // Quadratic in the lengths: a hostile megabyte-long key gets no suggestion rather than
        // minutes of work. The distance is at least the difference in length, so candidates
        // that differ more than the limit are skipped unscored.
        let length = word.count, limit = max(2, length / 3)
        guard length <= 256 else { return nil }
        let lowered = Array(word.lowercased())
        let scored = candidates.filter { abs($0.count - length) <= limit }.map { ($0, distance(lowered, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// " — did you mean 'X'?" or nothing, for the end of a message.
    public static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " — did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
