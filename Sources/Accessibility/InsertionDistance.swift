/// §5.6's ordering metric: "the minimum insertion steps to make our output the same as ground
/// truth (in one step, an element can be inserted to any other position in list)".
public enum InsertionDistance {
    /// The fewest moves that turn `order` into `truth`: the elements outside a longest
    /// subsequence already in the true order. Both list the same distinct items; an item in
    /// one list only counts as one step (it has to be inserted or taken out).
    public static func minimumInsertions<Item: Hashable>(_ order: [Item], truth: [Item]) -> Int {
        var rank: [Item: Int] = [:]
        for (position, item) in truth.enumerated() where rank[item] == nil { rank[item] = position }
        let ranks = order.compactMap { rank[$0] }
        let inBoth = ranks.count
        // Longest strictly increasing subsequence, patience style: O(n log n).
        var tails: [Int] = []
        for r in ranks {
            var low = 0, high = tails.count
            while low < high { let mid = (low + high) / 2; if tails[mid] < r { low = mid + 1 } else { high = mid } }
            if low == tails.count { tails.append(r) } else { tails[low] = r }
        }
        let onlyInOrder = order.count - inBoth, onlyInTruth = truth.count - Set(order).intersection(truth).count
        return (inBoth - tails.count) + onlyInOrder + onlyInTruth
    }
}
