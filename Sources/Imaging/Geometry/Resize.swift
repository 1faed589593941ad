extension RGBImage {
    /// This image scaled to `width`×`height` (both ≥ 1). See `Resampling` for the filters.
    public func resized(width: Int, height: Int, resampling: Resampling = .bilinear) -> RGBImage {
        precondition(width > 0 && height > 0, "resized(width:height:) needs a positive size, got \(width)×\(height)")
        if width == self.width && height == self.height { return self }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            resample(into: buffer.baseAddress!, rowStride: width * 3, width: width, height: height, resampling: resampling)
            count = width * height * 3
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Draws the `sourceWidth`×`sourceHeight` rectangle of `source` at (`sourceX`, `sourceY`)
    /// scaled to `width`×`height` with its top-left corner at (`x`, `y`) of this image; only the
    /// pixels of this image in `visibleColumns` × `visibleRows` (default: all) are written. The
    /// pixels drawn are exactly those of `source.cropped(...).resized(...)` pasted there, without
    /// the crop, the patch or the copy.
    public mutating func drawResampled(_ source: RGBImage, sourceX: Int, sourceY: Int, sourceWidth: Int, sourceHeight: Int,
                                       width: Int, height: Int, atX x: Int, y: Int, resampling: Resampling,
                                       visibleColumns: Range<Int>? = nil, visibleRows: Range<Int>? = nil) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && sourceX >= 0 && sourceY >= 0
                     && sourceX + sourceWidth <= source.width && sourceY + sourceHeight <= source.height,
                     "drawResampled: rectangle \(sourceX), \(sourceY), \(sourceWidth)×\(sourceHeight) outside the \(source.width)×\(source.height) source")
        precondition(width > 0 && height > 0, "drawResampled needs a positive size, got \(width)×\(height)")
        let visibleX = (visibleColumns ?? 0..<self.width).clamped(to: 0..<self.width)
        let visibleY = (visibleRows ?? 0..<self.height).clamped(to: 0..<self.height)
        let left = max(0, visibleX.lowerBound - x), right = min(width, visibleX.upperBound - x)
        let top = max(0, visibleY.lowerBound - y), bottom = min(height, visibleY.upperBound - y)
        guard left < right, top < bottom else { return }  // before forming ranges: the rectangle may miss the window
        let columns = left..<right, rows = top..<bottom
        let rowStride = self.width * 3
        pixels.withUnsafeMutableBufferPointer { target in
            source.resample(region: (sourceX, sourceY, sourceWidth, sourceHeight), width: width, height: height,
                            columns: columns, rows: rows,
                            into: target.baseAddress! + ((y + rows.lowerBound) * self.width + x + columns.lowerBound) * 3,
                            rowStride: rowStride, resampling: resampling)
        }
    }

    /// Writes this image scaled to `width`×`height` at `target`, whose rows are `rowStride`
    /// bytes apart (so it can draw straight into a larger canvas).
    func resample(into target: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, height: Int,
                  resampling: Resampling) {
        resample(region: (0, 0, self.width, self.height), width: width, height: height, columns: 0..<width, rows: 0..<height,
                 into: target, rowStride: rowStride, resampling: resampling)
    }

    /// The pixels `columns` × `rows` of `region` scaled to `width`×`height`, written from
    /// `target` (the first of them). Each output pixel depends on its own taps only, so any
    /// window of the output has the bits the whole resize gives it.
    ///
    /// Separable, vertical pass first: each output row blends the source rows it needs into one
    /// float row (contiguous, so it vectorizes; only the columns the window's taps read), then
    /// every output pixel gathers its columns as one 4-lane vector (R, G, B and a lane of the
    /// next pixel, ignored) into a float row, which is truncated to bytes eight at a time. Every
    /// lane sees the scalar filter's operations in its order (0.5, then + w·p tap by tap, no
    /// fused multiply-add), so the bytes are the scalar filter's.
    func resample(region: (x: Int, y: Int, width: Int, height: Int), width: Int, height: Int,
                  columns: Range<Int>, rows: Range<Int>, into target: UnsafeMutablePointer<UInt8>, rowStride: Int,
                  resampling: Resampling) {
        let columnTaps = UniformTaps(ResampleTable(source: region.width, target: width, resampling: resampling))
        let rowTable = ResampleTable(source: region.height, target: height, resampling: resampling)
        let sourceRowBytes = self.width * 3, taps = columnTaps.taps
        // Tap indices never decrease with the output index, so the window reads one span of columns.
        let firstColumn = columnTaps.indices[columns.lowerBound * taps]
        let lastColumn = columnTaps.indices[columns.upperBound * taps - 1]
        let spanBytes = (lastColumn - firstColumn + 1) * 3, outputBytes = columns.count * 3
        // +1: the 4-lane loads and stores reach one float past the last pixel.
        let blended = UnsafeMutablePointer<Float>.allocate(capacity: spanBytes + 1)
        let gathered = UnsafeMutablePointer<Float>.allocate(capacity: outputBytes + 1)
        defer { blended.deallocate(); gathered.deallocate() }
        blended[spanBytes] = 0
        columnTaps.indices.withUnsafeBufferPointer { columnIndices in
        columnTaps.weights.withUnsafeBufferPointer { columnWeights in
        rowTable.withPointers { rowStarts, rowIndices, rowWeights in
        pixels.withUnsafeBufferPointer { sourceBuffer in
            let sourceSpan = sourceBuffer.baseAddress! + region.y * sourceRowBytes + (region.x + firstColumn) * 3
            let indices = columnIndices.baseAddress! + columns.lowerBound * taps
            let weights = columnWeights.baseAddress! + columns.lowerBound * taps
            var y = rows.lowerBound
            while y < rows.upperBound {
                blendRows(sourceSpan, rowStride: sourceRowBytes, indices: rowIndices + rowStarts[y],
                          weights: rowWeights + rowStarts[y], taps: rowStarts[y + 1] - rowStarts[y],
                          count: spanBytes, into: blended)
                gatherColumns(blended, firstColumn: firstColumn, taps: taps, indices: indices, weights: weights,
                              count: columns.count, into: gathered)
                truncateToBytes(gathered, count: outputBytes, into: target + (y - rows.lowerBound) * rowStride)
                y += 1
            }
        }
        }
        }
        }
    }
}

/// target[j] = Σ w · row[j] over the `taps` source rows (index, w), in tap order, eight bytes at a
/// time: the sum stays in a register across the taps, so each float of `target` is written once.
/// Two taps (bilinear) and three (area shrinks by up to 2×) have their rows and weights in registers.
@inline(__always)
private func blendRows(_ source: UnsafePointer<UInt8>, rowStride: Int, indices: UnsafePointer<Int>,
                       weights: UnsafePointer<Float>, taps: Int, count: Int, into target: UnsafeMutablePointer<Float>) {
    let targetRaw = UnsafeMutableRawPointer(target)
    @inline(__always) func row(_ k: Int) -> UnsafeRawPointer { UnsafeRawPointer(source + indices[k] * rowStride) }
    @inline(__always) func bytes(_ row: UnsafeRawPointer, _ j: Int) -> SIMD8<Float> {
        SIMD8<Float>(row.loadUnaligned(fromByteOffset: j, as: SIMD8<UInt8>.self))
    }
    var j = 0
    switch taps {
    case 2:
        let row0 = row(0), row1 = row(1), w0 = weights[0], w1 = weights[1]
        while j + 8 <= count {
            var sum = w0 * bytes(row0, j)
            sum += w1 * bytes(row1, j)
            targetRaw.storeBytes(of: sum, toByteOffset: j * 4, as: SIMD8<Float>.self)
            j += 8
        }
    case 3:
        let row0 = row(0), row1 = row(1), row2 = row(2), w0 = weights[0], w1 = weights[1], w2 = weights[2]
        while j + 8 <= count {
            var sum = w0 * bytes(row0, j)
            sum += w1 * bytes(row1, j)
            sum += w2 * bytes(row2, j)
            targetRaw.storeBytes(of: sum, toByteOffset: j * 4, as: SIMD8<Float>.self)
            j += 8
        }
    default:
        while j + 8 <= count {
            var sum = weights[0] * bytes(row(0), j)
            var k = 1
            while k < taps { sum += weights[k] * bytes(row(k), j); k += 1 }
            targetRaw.storeBytes(of: sum, toByteOffset: j * 4, as: SIMD8<Float>.self)
            j += 8
        }
    }
    while j < count {
        var sum = weights[0] * Float(source[indices[0] * rowStride + j])
        var k = 1
        while k < taps { sum += weights[k] * Float(source[indices[k] * rowStride + j]); k += 1 }
        target[j] = sum
        j += 1
    }
}

/// output[3x..<3x+3] = 0.5 + Σ w · row[3(i − firstColumn)..<+3] over the `taps` taps (i, w) of
/// each of `count` output columns, in tap order. The +0.5 makes the truncation that follows round.
@inline(__always)
private func gatherColumns(_ row: UnsafePointer<Float>, firstColumn: Int, taps: Int, indices: UnsafePointer<Int>,
                           weights: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) {
    let rowRaw = UnsafeRawPointer(row)
    @inline(__always) func tap(_ t: Int) -> SIMD4<Float> {
        SIMD4(repeating: weights[t]) * rowRaw.loadUnaligned(fromByteOffset: (indices[t] - firstColumn) * 12, as: SIMD4<Float>.self)
    }
    var out = UnsafeMutableRawPointer(output)
    var x = 0, t = 0
    // The fourth lane of each store lands on the next pixel's R, which the next column overwrites.
    switch taps {
    case 2:  // bilinear, and area shrinks by whole factors of 2
        while x < count {
            var sum = SIMD4<Float>(repeating: 0.5)
            sum += tap(t); sum += tap(t + 1)
            out.storeBytes(of: sum, as: SIMD4<Float>.self)
            out += 12; t += 2; x += 1
        }
    case 3:  // area shrinks by up to 2× (the loader's 385 → 256: 1.5×, two or three source columns an output)
        while x < count {
            var sum = SIMD4<Float>(repeating: 0.5)
            sum += tap(t); sum += tap(t + 1); sum += tap(t + 2)
            out.storeBytes(of: sum, as: SIMD4<Float>.self)
            out += 12; t += 3; x += 1
        }
    default:
        while x < count {
            var sum = SIMD4<Float>(repeating: 0.5)
            let end = t + taps
            while t < end { sum += tap(t); t += 1 }
            out.storeBytes(of: sum, as: SIMD4<Float>.self)
            out += 12; x += 1
        }
    }
}

/// bytes[j] = UInt8(values[j]) for values in [0, 256): truncation, eight at a time. The
/// standard library's float-to-integer vector conversion checks every lane one by one, so the
/// whole number t is read from the bits of t + 2²³ instead (exact: t < 2²³, and its low byte
/// is t itself).
@inline(__always)
private func truncateToBytes(_ values: UnsafePointer<Float>, count: Int, into bytes: UnsafeMutablePointer<UInt8>) {
    let raw = UnsafeRawPointer(values), bytesRaw = UnsafeMutableRawPointer(bytes)
    var j = 0
    while j + 8 <= count {
        let whole = raw.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self).rounded(.towardZero) + 8_388_608
        let bits = unsafeBitCast(whole, to: SIMD8<UInt32>.self)
        bytesRaw.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: bits), toByteOffset: j, as: SIMD8<UInt8>.self)
        j += 8
    }
    while j < count {
        bytes[j] = UInt8(values[j])
        j += 1
    }
}

extension ResampleTable {
    func withPointers<R>(_ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> R) -> R {
        starts.withUnsafeBufferPointer { s in
            indices.withUnsafeBufferPointer { i in
                weights.withUnsafeBufferPointer { w in
                    // Never empty: every output index has at least one tap.
                    body(s.baseAddress!, i.baseAddress!, w.baseAddress!)
                }
            }
        }
    }
}
