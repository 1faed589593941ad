@testable import Kernels

/// Naive double-precision convolution loops: the definition the kernels are checked against.
enum ConvReference {
    static func inputIndex(_ g: Conv2dGeometry, _ n: Int, _ c: Int, _ y: Int, _ x: Int) -> Int {
        ((n * g.inChannels + c) * g.inHeight + y) * g.inWidth + x
    }

    static func outputIndex(_ g: Conv2dGeometry, _ n: Int, _ c: Int, _ y: Int, _ x: Int) -> Int {
        ((n * g.outChannels + c) * g.outHeight + y) * g.outWidth + x
    }

    static func weightIndex(_ g: Conv2dGeometry, _ o: Int, _ i: Int, _ ky: Int, _ kx: Int) -> Int {
        ((o * g.inChannelsPerGroup + i) * g.kernelHeight + ky) * g.kernelWidth + kx
    }

    /// Calls body(n, o, oy, ox, inputChannel, iy, ix, ky, kx, inGroupIndex) for every valid tap.
    static func forEachTap(_ g: Conv2dGeometry, _ body: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) -> Void) {
        for n in 0..<g.batch {
            for o in 0..<g.outChannels {
                let group = o / g.outChannelsPerGroup
                for oy in 0..<g.outHeight {
                    for ox in 0..<g.outWidth {
                        for i in 0..<g.inChannelsPerGroup {
                            let c = group * g.inChannelsPerGroup + i
                            for ky in 0..<g.kernelHeight {
                                let iy = oy * g.strideHeight - g.padHeight + ky
                                if iy < 0 || iy >= g.inHeight { continue }
                                for kx in 0..<g.kernelWidth {
                                    let ix = ox * g.strideWidth - g.padWidth + kx
                                    if ix < 0 || ix >= g.inWidth { continue }
                                    body(n, o, oy, ox, c, iy, ix, ky, kx, i)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    static func forward(_ g: Conv2dGeometry, input: [Float], weight: [Float], bias: [Float]?) -> [Double] {
        var out = [Double](repeating: 0, count: g.outputCount)
        if let bias {
            for n in 0..<g.batch {
                for o in 0..<g.outChannels {
                    for y in 0..<g.outHeight { for x in 0..<g.outWidth { out[outputIndex(g, n, o, y, x)] = Double(bias[o]) } }
                }
            }
        }
        forEachTap(g) { n, o, oy, ox, c, iy, ix, ky, kx, i in
            out[outputIndex(g, n, o, oy, ox)] +=
                Double(weight[weightIndex(g, o, i, ky, kx)]) * Double(input[inputIndex(g, n, c, iy, ix)])
        }
        return out
    }

    static func backwardInput(_ g: Conv2dGeometry, gradOutput: [Float], weight: [Float]) -> [Double] {
        var gx = [Double](repeating: 0, count: g.inputCount)
        forEachTap(g) { n, o, oy, ox, c, iy, ix, ky, kx, i in
            gx[inputIndex(g, n, c, iy, ix)] +=
                Double(weight[weightIndex(g, o, i, ky, kx)]) * Double(gradOutput[outputIndex(g, n, o, oy, ox)])
        }
        return gx
    }

    static func backwardWeight(_ g: Conv2dGeometry, input: [Float], gradOutput: [Float]) -> (weight: [Double], bias: [Double]) {
        var gw = [Double](repeating: 0, count: g.weightCount)
        var gb = [Double](repeating: 0, count: g.outChannels)
        forEachTap(g) { n, o, oy, ox, c, iy, ix, ky, kx, i in
            gw[weightIndex(g, o, i, ky, kx)] +=
                Double(input[inputIndex(g, n, c, iy, ix)]) * Double(gradOutput[outputIndex(g, n, o, oy, ox)])
        }
        for n in 0..<g.batch {
            for o in 0..<g.outChannels {
                for y in 0..<g.outHeight { for x in 0..<g.outWidth { gb[o] += Double(gradOutput[outputIndex(g, n, o, y, x)]) } }
            }
        }
        return (gw, gb)
    }
}
