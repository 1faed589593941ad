/// Materialises a transpose: output dimension i is input dimension `permutation[i]`.
public enum Permute {
    public static func apply(_ input: UnsafePointer<Float>, shape: [Int], permutation: [Int], output: UnsafeMutablePointer<Float>) {
        let rank = shape.count
        var inStrides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { inStrides[d] = inStrides[d + 1] * shape[d + 1] }
        let outShape = permutation.map { shape[$0] }
        let stridesInOutOrder = permutation.map { inStrides[$0] }
        let total = shape.reduce(1, *)
        guard total > 0 else { return }
        let inner = outShape[rank - 1], innerStride = stridesInOutOrder[rank - 1]
        var index = [Int](repeating: 0, count: rank)
        var inOffset = 0
        var o = 0
        while o < total {
            var p = input + inOffset
            for i in 0..<inner { output[o + i] = p.pointee; p += innerStride }
            o += inner
            var d = rank - 2
            while d >= 0 {
                index[d] += 1
                inOffset += stridesInOutOrder[d]
                if index[d] < outShape[d] { break }
                inOffset -= stridesInOutOrder[d] * outShape[d]
                index[d] = 0
                d -= 1
            }
        }
    }

    public static func inverse(_ permutation: [Int]) -> [Int] {
        var inverse = [Int](repeating: 0, count: permutation.count)
        for (i, p) in permutation.enumerated() { inverse[p] = i }
        return inverse
    }
}
