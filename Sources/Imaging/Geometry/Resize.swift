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

    /// Writes this image scaled to `width`×`height` at `target`, whose rows are `rowStride`
    /// bytes apart (so it can draw straight into a larger canvas). Separable, vertical pass
    /// first: each output row blends its source rows into one float row (contiguous, so it
    /// vectorizes), then gathers its columns — the gather, the costly part, runs only
    /// `width × height` times. Loops are `while` over raw pointers (for-in over ranges is
    /// not inlined in unoptimized builds).
    func resample(into target: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, height: Int,
                  resampling: Resampling) {
        let columns = ResampleTable(source: self.width, target: width, resampling: resampling)
        let rows = ResampleTable(source: self.height, target: height, resampling: resampling)
        let sourceRowBytes = self.width * 3
        let blended = UnsafeMutablePointer<Float>.allocate(capacity: sourceRowBytes)
        defer { blended.deallocate() }
        pixels.withUnsafeBufferPointer { sourceBuffer in
            let source = sourceBuffer.baseAddress!
            rows.withPointers { rowStarts, rowIndices, rowWeights in
                columns.withPointers { columnStarts, columnIndices, columnWeights in
                    var y = 0
                    while y < height {
                        // Vertical: blended = Σ w · source row.
                        var k = rowStarts[y]
                        blendRow(source + rowIndices[k] * sourceRowBytes, weight: rowWeights[k], into: blended,
                                 count: sourceRowBytes, accumulate: false)
                        k += 1
                        while k < rowStarts[y + 1] {
                            blendRow(source + rowIndices[k] * sourceRowBytes, weight: rowWeights[k], into: blended,
                                     count: sourceRowBytes, accumulate: true)
                            k += 1
                        }
                        // Horizontal: gather the taps of each output column.
                        var output = target + y * rowStride
                        var x = 0
                        while x < width {
                            var r: Float = 0.5, g: Float = 0.5, b: Float = 0.5  // +0.5: truncation rounds
                            var t = columnStarts[x]
                            let end = columnStarts[x + 1]
                            while t < end {
                                let pixel = blended + columnIndices[t] * 3, w = columnWeights[t]
                                r += w * pixel[0]; g += w * pixel[1]; b += w * pixel[2]
                                t += 1
                            }
                            // Weights are ≥ 0 and sum to 1, so values stay within [0.5, 255.5).
                            output[0] = UInt8(r); output[1] = UInt8(g); output[2] = UInt8(b)
                            output += 3
                            x += 1
                        }
                        y += 1
                    }
                }
            }
        }
    }
}

/// target[j] (+)= weight · row[j], eight bytes at a time.
@inline(__always)
private func blendRow(_ row: UnsafePointer<UInt8>, weight: Float, into target: UnsafeMutablePointer<Float>,
                      count: Int, accumulate: Bool) {
    let raw = UnsafeRawPointer(row), targetRaw = UnsafeMutableRawPointer(target)
    var j = 0
    while j + 8 <= count {
        var value = weight * SIMD8<Float>(raw.loadUnaligned(fromByteOffset: j, as: SIMD8<UInt8>.self))
        if accumulate { value += targetRaw.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self) }
        targetRaw.storeBytes(of: value, toByteOffset: j * 4, as: SIMD8<Float>.self)
        j += 8
    }
    while j < count {
        target[j] = weight * Float(row[j]) + (accumulate ? target[j] : 0)
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
