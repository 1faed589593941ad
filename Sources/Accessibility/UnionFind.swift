/// Disjoint sets over 0..<count, for heuristics that link pairs and then group whatever is
/// linked ("we do this repetitively to group multi-line text", §5.5).
struct UnionFind {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func root(_ i: Int) -> Int {
        var r = i
        while parent[r] != r { r = parent[r] }
        var j = i
        while parent[j] != r { let next = parent[j]; parent[j] = r; j = next }
        return r
    }

    mutating func link(_ a: Int, _ b: Int) {
        let ra = root(a), rb = root(b)
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }

    /// The sets, each in ascending index order, ordered by their smallest index.
    mutating func groups() -> [[Int]] {
        var byRoot: [Int: [Int]] = [:]
        for i in parent.indices { byRoot[root(i), default: []].append(i) }
        return byRoot.keys.sorted().map { byRoot[$0]! }
    }
}
