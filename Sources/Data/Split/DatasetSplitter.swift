import Foundation
import Support

/// `screenlab data split`: new splits that keep every group (app) in one split and spread
/// rare classes over all splits.
///
/// Screen Recognition (Zhang et al. 2021, §4.2) splits by app because screens of one app look
/// alike; a random per-image split leaks them across train and test and inflates test AP.
///
/// Algorithm: iterative stratification (Sechidis, Tsoumakas & Vlahavas, ECML 2011) over
/// units — a group, or an image with `--by image`. Each unit is a vector of "images holding
/// class c". Repeatedly take the class with the fewest unassigned occurrences and place each
/// unit holding it (in seeded random order) into the split that still wants most of that class
/// (ties: most wanted images, then list order). One change to the paper's rule: while a split
/// has none of the class, the unit fits in the images the split still wants, and enough units
/// remain to give every such split one, the unit goes to a split without the class — so a class
/// in at least k units appears in all k splits unless that would overfill a split.
/// Units without boxes fill the splits that still want most images.
public enum DatasetSplitter {
    public enum Unit: String, CaseIterable {
        case group, image
    }

    public struct SplitError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Split name → sample indices (ascending). Deterministic for a seed.
    public static func split(_ dataset: Dataset, names: [String], fractions: [Double], by unit: Unit,
                             seed: UInt64) throws -> [String: [Int]] {
        try validate(names: names, fractions: fractions)
        let units = try makeUnits(dataset, by: unit)
        let classCount = dataset.classes.count
        // Unit presence vectors: images in the unit holding each class.
        let presence: [[Int]] = units.map { members in
            var counts = [Int](repeating: 0, count: classCount)
            for index in members { for c in Set(dataset.samples[index].annotations.map(\.classIndex)) { counts[c] += 1 } }
            return counts
        }
        var wantedClass: [[Double]] = fractions.map { f in
            (0..<classCount).map { c in f * Double(presence.reduce(0) { $0 + $1[c] }) }
        }
        var wantedImages = fractions.map { $0 * Double(dataset.samples.count) }
        var heldClass = [[Int]](repeating: [Int](repeating: 0, count: classCount), count: names.count)
        var assignment = [Int?](repeating: nil, count: units.count)
        var random = SeededRandom(seed: seed)
        var order = Array(units.indices)
        order.shuffle(using: &random)

        func assign(_ u: Int, to s: Int) {
            assignment[u] = s
            wantedImages[s] -= Double(units[u].count)
            for c in 0..<classCount where presence[u][c] > 0 {
                wantedClass[s][c] -= Double(presence[u][c])
                heldClass[s][c] += 1
            }
        }
        let active = names.indices.filter { fractions[$0] > 0 }
        while true {
            var remaining = [Int](repeating: 0, count: classCount)
            for u in order where assignment[u] == nil { for c in 0..<classCount where presence[u][c] > 0 { remaining[c] += 1 } }
            guard let rarest = (0..<classCount).filter({ remaining[$0] > 0 }).min(by: { (remaining[$0], $0) < (remaining[$1], $1) }) else { break }
            var left = remaining[rarest]
            for u in order where assignment[u] == nil && presence[u][rarest] > 0 {
                // Only where the unit fits in what the split still wants: a big group holding a
                // rare class must not turn a 10 % split into a 30 % one.
                let lacking = active.filter { heldClass[$0][rarest] == 0 && Double(units[u].count) <= wantedImages[$0] + 0.5 }
                let candidates = !lacking.isEmpty && left <= lacking.count ? lacking : active
                let best = candidates.max { a, b in
                    (wantedClass[a][rarest], wantedImages[a], -a) < (wantedClass[b][rarest], wantedImages[b], -b)
                }!
                assign(u, to: best)
                left -= 1
            }
        }
        for u in order where assignment[u] == nil {
            let best = active.max { a, b in (wantedImages[a], -a) < (wantedImages[b], -b) }!
            assign(u, to: best)
        }
        var result: [String: [Int]] = Dictionary(uniqueKeysWithValues: names.map { ($0, []) })
        for (u, members) in units.enumerated() { result[names[assignment[u]!]]! += members }
        return result.mapValues { $0.sorted() }
    }

    static func validate(names: [String], fractions: [Double]) throws {
        guard names.count == fractions.count, !names.isEmpty else {
            throw SplitError(description: "\(fractions.count) fractions for \(names.count) split names (\(names.joined(separator: ","))); give one fraction per split")
        }
        guard Set(names).count == names.count else { throw SplitError(description: "split names repeat: \(names.joined(separator: ","))") }
        // Each name becomes splits/NAME.txt: a '/' or '..' would write outside the output folder.
        if let bad = names.first(where: { $0.isEmpty || $0.contains("/") || $0.hasPrefix(".") || $0.unicodeScalars.contains { $0.value < 0x20 } }) {
            throw SplitError(description: "split name '\(bad)' is not a plain name (it becomes splits/NAME.txt: no '/', no leading '.', no control characters)")
        }
        guard fractions.allSatisfy({ $0.isFinite && $0 >= 0 }), abs(fractions.reduce(0, +) - 1) < 1e-6 else {
            throw SplitError(description: "fractions \(fractions.map { String($0) }.joined(separator: ",")) must be non-negative and sum to 1")
        }
    }

    /// Sample indices per unit, units in first-appearance order.
    static func makeUnits(_ dataset: Dataset, by unit: Unit) throws -> [[Int]] {
        switch unit {
        case .image:
            return dataset.samples.indices.map { [$0] }
        case .group:
            let missing = dataset.samples.filter { $0.group == nil }.count
            guard missing == 0 else {
                throw SplitError(description: """
                    \(missing) of \(dataset.samples.count) samples have no group (app), so a group split is not possible. \
                    Add groups (a `group` column in manifest.tsv, or `group` on COCO images), or split with --by image \
                    knowing that screens of one app can then land in both train and test.
                    """)
            }
            var indexOfGroup: [String: Int] = [:]
            var units: [[Int]] = []
            for (index, sample) in dataset.samples.enumerated() {
                let group = sample.group!
                if let u = indexOfGroup[group] { units[u].append(index) } else {
                    indexOfGroup[group] = units.count
                    units.append([index])
                }
            }
            return units
        }
    }
}
