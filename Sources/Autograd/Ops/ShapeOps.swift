import Kernels
import Tensor

extension Variable {
    /// Same data, new shape; one dimension may be -1 (inferred).
    public func reshaped(_ newShape: [Int]) throws -> Variable {
        var resolved = newShape
        if let unknown = newShape.firstIndex(of: -1) {
            let known = newShape.enumerated().filter { $0.offset != unknown }.map(\.element).reduce(1, *)
            guard known > 0, value.count % known == 0 else {
                throw TensorError.shapeMismatch(op: "reshape", shapes: [shape, newShape], reason: "cannot infer the -1 dimension")
            }
            resolved[unknown] = value.count / known
        }
        let out = try value.reshaped(resolved)
        let original = shape
        return tape.record(.reshape, inputs: [self], output: out) { g, _ in [try g.reshaped(original)] }
    }

    /// Reorders dimensions: output dimension i is input dimension `permutation[i]`.
    public func permuted(_ permutation: [Int]) throws -> Variable {
        guard permutation.sorted() == Array(0..<shape.count) else {
            throw TensorError.invalidArgument(op: "permute", reason: "\(permutation) is not a permutation of the \(shape.count) dimensions of \(shape)")
        }
        let out = tape.timed(.permute) { Variable.permute(value, permutation) }
        let inverse = Permute.inverse(permutation)
        return tape.record(.permute, inputs: [self], output: out) { g, _ in [Variable.permute(g, inverse)] }
    }

    static func permute(_ t: Tensor, _ permutation: [Int]) -> Tensor {
        var out = Tensor(uninitialized: permutation.map { t.shape[$0] })
        out.withUnsafeMutableBufferPointer { Permute.apply(t.pointer, shape: t.shape, permutation: permutation, output: $0.baseAddress!) }
        return out
    }

    /// The window `range` of dimension `axis`.
    public func slice(axis: Int, _ range: Range<Int>) throws -> Variable {
        let a = try normalizedAxis(axis, rank: shape.count, op: "slice")
        guard range.lowerBound >= 0, range.upperBound <= shape[a], !range.isEmpty else {
            throw TensorError.invalidArgument(op: "slice", reason: "range \(range) outside dimension \(a) of size \(shape[a]) in \(shape)")
        }
        let (outer, inner) = (shape[..<a].reduce(1, *), shape[(a + 1)...].reduce(1, *))
        var outShape = shape
        outShape[a] = range.count
        let input = value, axisSize = shape[a]
        let out = tape.timed(.slice) { () -> Tensor in
            var out = Tensor(uninitialized: outShape)
            out.withUnsafeMutableBufferPointer {
                AxisCopy.window(input.pointer, outer: outer, sourceAxis: axisSize, inner: inner, offset: range.lowerBound, length: range.count, into: $0.baseAddress!)
            }
            return out
        }
        let inputShape = shape
        return tape.record(.slice, inputs: [self], output: out) { g, _ in
            var grad = try Tensor(zeros: inputShape)
            grad.withUnsafeMutableBufferPointer {
                AxisCopy.copy(g.pointer, outer: outer, sourceAxis: range.count, inner: inner, into: $0.baseAddress!, destinationAxis: axisSize, destinationOffset: range.lowerBound)
            }
            return [grad]
        }
    }

    /// Concatenates along `axis`; all other dimensions must agree.
    public static func concat(_ parts: [Variable], axis: Int) throws -> Variable {
        guard let first = parts.first else { throw TensorError.invalidArgument(op: "concat", reason: "no inputs") }
        let tape = try sameTape(first, first)
        let a = try normalizedAxis(axis, rank: first.shape.count, op: "concat")
        for p in parts {
            var x = p.shape, y = first.shape
            guard x.count == y.count, p.tape === tape else {
                throw TensorError.shapeMismatch(op: "concat", shapes: parts.map(\.shape), reason: "ranks differ or tapes differ")
            }
            x[a] = 0; y[a] = 0
            guard x == y else { throw TensorError.shapeMismatch(op: "concat", shapes: parts.map(\.shape), reason: "dimensions other than \(a) differ") }
        }
        let sizes = parts.map { $0.shape[a] }
        let total = sizes.reduce(0, +)
        let (outer, inner) = (first.shape[..<a].reduce(1, *), first.shape[(a + 1)...].reduce(1, *))
        var outShape = first.shape
        outShape[a] = total
        let out = tape.timed(.concat) { () -> Tensor in
            var out = Tensor(uninitialized: outShape)
            out.withUnsafeMutableBufferPointer { o in
                var offset = 0
                for p in parts {
                    AxisCopy.copy(p.value.pointer, outer: outer, sourceAxis: p.shape[a], inner: inner, into: o.baseAddress!, destinationAxis: total, destinationOffset: offset)
                    offset += p.shape[a]
                }
            }
            return out
        }
        let shapes = parts.map(\.shape)
        return tape.record(.concat, inputs: parts, output: out) { g, needed in
            var offset = 0
            return shapes.enumerated().map { i, s in
                defer { offset += s[a] }
                guard needed[i] else { return nil }
                var part = Tensor(uninitialized: s)
                part.withUnsafeMutableBufferPointer {
                    AxisCopy.window(g.pointer, outer: outer, sourceAxis: total, inner: inner, offset: offset, length: s[a], into: $0.baseAddress!)
                }
                return part
            }
        }
    }

    /// `concat(parts, axis: 2).permuted([0, 2, 1])` in one pass each way: parts [B, R, C_i] →
    /// [B, ΣC_i, R]. The detector's head flatten ([N, outputs, a level's positions] → [N, priors,
    /// outputs]), which as a concat and a permute copied every value twice in each direction.
    public static func concatTransposed(_ parts: [Variable]) throws -> Variable {
        guard let first = parts.first else { throw TensorError.invalidArgument(op: "concatTransposed", reason: "no inputs") }
        let tape = first.tape
        guard parts.allSatisfy({ $0.shape.count == 3 && $0.shape[0] == first.shape[0] && $0.shape[1] == first.shape[1] && $0.tape === tape }) else {
            throw TensorError.shapeMismatch(op: "concatTransposed", shapes: parts.map(\.shape),
                                            reason: "expected [B, R, C_i] with the same B and R on one tape")
        }
        let (batch, rows) = (first.shape[0], first.shape[1])
        let widths = parts.map { $0.shape[2] }, total = widths.reduce(0, +)
        let offsets = widths.indices.map { widths[..<$0].reduce(0, +) }
        let out = tape.timed(.concatTransposed) { () -> Tensor in
            var out = Tensor(uninitialized: [batch, total, rows])
            let o = out.uniqueMutablePointer()
            Permute.transpose(parts.indices.flatMap { i in
                (0..<batch).map { n in
                    Permute.Matrix(input: parts[i].value.pointer + n * rows * widths[i], rows: rows, columns: widths[i], inputStride: widths[i],
                                   output: o + (n * total + offsets[i]) * rows, outputStride: rows)
                }
            })
            return out
        }
        return tape.record(.concatTransposed, inputs: parts, output: out) { g, needed in
            var gradients = parts.indices.map { needed[$0] ? Tensor(uninitialized: [batch, rows, widths[$0]]) : nil }
            var matrices: [Permute.Matrix] = []
            for i in parts.indices {
                guard let pointer = gradients[i]?.uniqueMutablePointer() else { continue }
                matrices += (0..<batch).map { n in
                    Permute.Matrix(input: g.pointer + (n * total + offsets[i]) * rows, rows: widths[i], columns: rows, inputStride: rows,
                                   output: pointer + n * rows * widths[i], outputStride: widths[i])
                }
            }
            Permute.transpose(matrices)
            return gradients
        }
    }

    /// Index-select along `axis` (repeats allowed; backward scatter-adds).
    public func gather(axis: Int, indices: [Int]) throws -> Variable {
        let a = try normalizedAxis(axis, rank: shape.count, op: "gather")
        let axisSize = shape[a]
        if let bad = indices.first(where: { $0 < 0 || $0 >= axisSize }) {
            throw TensorError.invalidArgument(op: "gather", reason: "index \(bad) out of range 0..<\(axisSize) on dimension \(a) of \(shape)")
        }
        let indices32 = indices.map { Int32($0) }
        let (outer, inner) = (shape[..<a].reduce(1, *), shape[(a + 1)...].reduce(1, *))
        var outShape = shape
        outShape[a] = indices.count
        let input = value
        let out = tape.timed(.gather) { () -> Tensor in
            var out = Tensor(uninitialized: outShape)
            out.withUnsafeMutableBufferPointer { o in
                indices32.withUnsafeBufferPointer {
                    Gather.forward(input.pointer, outer: outer, axis: axisSize, inner: inner, indices: $0.baseAddress!, count: indices.count, into: o.baseAddress!)
                }
            }
            return out
        }
        let inputShape = shape
        return tape.record(.gather, inputs: [self], output: out) { g, _ in
            var grad = Tensor(uninitialized: inputShape)
            grad.withUnsafeMutableBufferPointer { o in
                indices32.withUnsafeBufferPointer {
                    Gather.backward(g.pointer, outer: outer, axis: axisSize, inner: inner, indices: $0.baseAddress!, count: indices32.count, into: o.baseAddress!)
                }
            }
            return [grad]
        }
    }
}
