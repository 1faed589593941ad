/// Block copies along one axis, viewing a tensor as [outer, axis, inner]. Concat writes each
/// input into a window of the output's axis; slice reads a window; their backwards swap roles.
public enum AxisCopy {
    /// Copies `source` [outer, sourceAxis, inner] into `destination` [outer, destinationAxis, inner]
    /// at axis offset `destinationOffset` (accumulating when `accumulate`).
    public static func copy(_ source: UnsafePointer<Float>, outer: Int, sourceAxis: Int, inner: Int,
                            into destination: UnsafeMutablePointer<Float>, destinationAxis: Int, destinationOffset: Int,
                            accumulate: Bool = false) {
        let block = sourceAxis * inner
        for o in 0..<outer {
            let s = source + o * block
            let d = destination + (o * destinationAxis + destinationOffset) * inner
            if accumulate { Vector.accumulate(s, into: d, count: block) } else { d.update(from: s, count: block) }
        }
    }

    /// Reads the window [offset, offset + length) of `source`'s axis into a contiguous `destination`.
    public static func window(_ source: UnsafePointer<Float>, outer: Int, sourceAxis: Int, inner: Int,
                              offset: Int, length: Int, into destination: UnsafeMutablePointer<Float>) {
        let block = length * inner
        for o in 0..<outer {
            (destination + o * block).update(from: source + (o * sourceAxis + offset) * inner, count: block)
        }
    }
}

/// Index-select along an axis ([outer, axis, inner] → [outer, indices.count, inner]) and its
/// backward, a scatter-add (repeated indices accumulate).
public enum Gather {
    public static func forward(_ source: UnsafePointer<Float>, outer: Int, axis: Int, inner: Int,
                               indices: UnsafePointer<Int32>, count: Int, into destination: UnsafeMutablePointer<Float>) {
        for o in 0..<outer {
            for j in 0..<count {
                (destination + (o * count + j) * inner).update(from: source + (o * axis + Int(indices[j])) * inner, count: inner)
            }
        }
    }

    public static func backward(_ gradient: UnsafePointer<Float>, outer: Int, axis: Int, inner: Int,
                                indices: UnsafePointer<Int32>, count: Int, into gradSource: UnsafeMutablePointer<Float>) {
        gradSource.initialize(repeating: 0, count: outer * axis * inner)
        for o in 0..<outer {
            for j in 0..<count {
                Vector.accumulate(gradient + (o * count + j) * inner, into: gradSource + (o * axis + Int(indices[j])) * inner, count: inner)
            }
        }
    }
}
