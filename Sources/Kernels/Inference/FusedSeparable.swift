/// A depthwise 3×3 (stride 1, padding 1) convolution and the pointwise 1×1 convolution after it
/// in one pass: `PackedConv2d`'s tiles of 16 output positions are filled with the depthwise
/// layer's finished values (bias and clamp applied) instead of being gathered from its output,
/// so that output is never written to memory and read back, and the depthwise work of a tile
/// runs while its input rows are in cache. The pointwise blocks then run on the same packed
/// micro-kernel.
///
/// Each depthwise vector is the sum `FusedDepthwise` computes for it (`Depthwise3x3.forwardStride1`:
/// the same nine products in the same order, then the same clamp), and the columns are the
/// ones `PackedConv2d` would gather: the result is bit-identical to running the two layers one
/// after the other, for any worker count.
public enum FusedSeparable {
    /// The depthwise layer must be 3×3, stride 1, padding 1, one channel per group, over rows
    /// whose width is a multiple of 8 (so each half of a 16-position tile lies in one row), and
    /// the pointwise layer a 1×1, stride 1, unpadded dense convolution of its output.
    public static func isSupported(depthwise d: Conv2dGeometry, pointwise p: Conv2dGeometry) -> Bool {
        d.isDepthwise3x3 && d.strideHeight == 1 && d.strideWidth == 1 && d.padHeight == 1 && d.padWidth == 1
            && d.outWidth % 8 == 0 && d.outWidth == d.inWidth && d.outHeight == d.inHeight
            && p.groups == 1 && p.kernelHeight == 1 && p.kernelWidth == 1 && p.strideHeight == 1 && p.strideWidth == 1
            && p.padHeight == 0 && p.padWidth == 0
            && p.inChannels == d.outChannels && p.inHeight == d.outHeight && p.inWidth == d.outWidth && p.batch == d.batch
    }

    /// Floats of scratch `forward` needs: the padded input, then per worker one group of tiles and a spill block.
    public static func scratchCount(depthwise d: Conv2dGeometry, pointwise p: Conv2dGeometry, workers: Int) -> Int {
        PackedConv2d.PaddedInput.count(d) + PackedConv2d.workers(p, requested: workers) * PackedConv2d.perWorkerScratch(depth: p.inChannels)
    }

    /// `weight` [channels, 1, 3, 3] and `bias` [channels] of the (folded) depthwise layer with
    /// its clamp `depthwiseBounds`; `filters` the pointwise layer's, with `bounds`. Output
    /// [batch, outChannels, height, width], channels-first.
    public static func forward(
        depthwise d: Conv2dGeometry, pointwise p: Conv2dGeometry, input: UnsafePointer<Float>,
        weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, depthwiseBounds: ActivationBounds,
        filters: PackedFilters, bounds: ActivationBounds, output: UnsafeMutablePointer<Float>,
        workers requested: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        precondition(isSupported(depthwise: d, pointwise: p) && filters.depth == p.inChannels && filters.outChannels == p.outChannels,
                     "FusedSeparable: \(d) then \(p)")
        if d.batch == 0 { return }
        let tileWidth = PackedConv2d.tileWidth
        let channels = d.inChannels, width = d.outWidth, outPlane = d.outHeight * width
        let tiles = (outPlane + tileWidth - 1) / tileWidth
        let workers = PackedConv2d.workers(p, requested: requested)
        let groups = PackedConv2d.groupCount(tiles: tiles, depth: channels, batch: d.batch, workers: workers)
        let padded = scratch, workerScratch = scratch + PackedConv2d.PaddedInput.count(d)
        let scratchPerWorker = PackedConv2d.perWorkerScratch(depth: channels)
        PackedConv2d.PaddedInput.write(d, input: input, into: padded, workers: workers)
        let rowStride = width + 2, paddedPlane = (d.outHeight + 2) * rowStride
        let clamp = ClampEpilogue(depthwiseBounds)
        let store = PackedConv2d.TileStore(g: p, output: output, layout: .channelsFirst, outPlane: outPlane)
        Parallel.forEachChunk(d.batch * groups, workers: workers) { items, worker in
            let columns = workerScratch + worker * scratchPerWorker
            let spill = columns + PackedConv2d.tilesPerGroup(depth: channels) * channels * tileWidth
            for item in items {
                let n = item / groups
                let range = Parallel.chunk(item % groups, of: groups, count: tiles)
                // Where each 8-lane half of the group's tiles starts in a padded plane (−1: past
                // the plane's end), worked out once: a division per vector cost more than its taps.
                let halves = 2 * range.count
                withUnsafeTemporaryAllocation(of: Int.self, capacity: halves) { offsets in
                    for h in 0..<halves {
                        let position = range.lowerBound * tileWidth + 8 * h
                        offsets[h] = position < outPlane ? (position / width) * rowStride + position % width : -1
                    }
                    // Channel by channel, so each channel's nine taps are broadcast once per group.
                    for c in 0..<channels {
                        let f = Filter3x3(weight + c * 9)
                        let b = SIMD8<Float>(repeating: bias[c])
                        let plane = UnsafePointer(padded + (n * channels + c) * paddedPlane)
                        var column = columns + c * tileWidth
                        for h in 0..<halves {
                            let target = column + 8 * (h & 1)
                            let offset = offsets[h]
                            if offset < 0 {
                                // Past the plane's end (its last tile): zero lanes, as `PackedConv2d`'s gather leaves them.
                                store8(SIMD8(repeating: 0), target)
                            } else {
                                let r0 = plane + offset, r1 = r0 + rowStride, r2 = r1 + rowStride
                                // `Depthwise3x3.forwardStride1`'s sum, term for term.
                                var acc = b + f.w0 * load8(r0) + f.w1 * load8(r0 + 1) + f.w2 * load8(r0 + 2)
                                acc += f.w3 * load8(r1) + f.w4 * load8(r1 + 1) + f.w5 * load8(r1 + 2)
                                acc += f.w6 * load8(r2) + f.w7 * load8(r2 + 1) + f.w8 * load8(r2 + 2)
                                store8(clamp.finish(acc), target)
                            }
                            if h & 1 == 1 { column += channels * tileWidth }
                        }
                    }
                }
                PackedConv2d.multiply(filters, columns: columns, tiles: range, image: n, store: store,
                                      lower: bounds.lower, upper: bounds.upper, spill: spill)
            }
        }
    }
}
