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
    /// bytes apart (so it can draw straight into a larger canvas). Separable: a horizontal
    /// pass into a float buffer, then a vertical pass; taps come from `ResampleTable`.
    /// Loops are `while` over raw pointers: for-in over ranges is not inlined in debug builds,
    /// which the tests and data loaders run as.
    func resample(into target: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, height: Int,
                  resampling: Resampling) {
        let columns = ResampleTable(source: self.width, target: width, resampling: resampling)
        let rows = ResampleTable(source: self.height, target: height, resampling: resampling)
        let sourceHeight = self.height, sourceRowBytes = self.width * 3
        let rowFloats = width * 3
        let horizontal = UnsafeMutablePointer<Float>.allocate(capacity: sourceHeight * rowFloats)
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        defer { horizontal.deallocate(); sum.deallocate() }
        pixels.withUnsafeBufferPointer { sourceBuffer in
            let source = sourceBuffer.baseAddress!
            columns.withPointers { starts, indices, weights in
                var y = 0
                while y < sourceHeight {
                    let sourceRow = source + y * sourceRowBytes
                    var output = horizontal + y * rowFloats
                    var x = 0
                    while x < width {
                        var r: Float = 0, g: Float = 0, b: Float = 0
                        var k = starts[x]
                        let end = starts[x + 1]
                        while k < end {
                            let pixel = sourceRow + indices[k] * 3, w = weights[k]
                            r += w * Float(pixel[0]); g += w * Float(pixel[1]); b += w * Float(pixel[2])
                            k += 1
                        }
                        output[0] = r; output[1] = g; output[2] = b
                        output += 3
                        x += 1
                    }
                    y += 1
                }
            }
        }
        rows.withPointers { starts, indices, weights in
            var y = 0
            while y < height {
                sum.update(repeating: 0, count: rowFloats)
                var k = starts[y]
                let end = starts[y + 1]
                while k < end {
                    let sourceRow = horizontal + indices[k] * rowFloats, w = weights[k]
                    var j = 0
                    while j < rowFloats { sum[j] += w * sourceRow[j]; j += 1 }
                    k += 1
                }
                let outputRow = target + y * rowStride
                var j = 0
                // Values are within [0, 255] up to float error; +0.5 then truncation rounds.
                while j < rowFloats { outputRow[j] = UInt8(sum[j] + 0.5); j += 1 }
                y += 1
            }
        }
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
