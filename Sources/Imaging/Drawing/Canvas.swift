import Foundation

/// Drawing on an `RGBImage` in place. Everything is clipped to the image; colours with alpha
/// are blended over what is already there (straight alpha, 8-bit sRGB arithmetic).
extension RGBImage {
    /// Fills whole pixels `x ..< x + width`, `y ..< y + height` (clipped); no anti-aliasing.
    public mutating func fillRect(x: Int, y: Int, width: Int, height: Int, color: RGBA) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + width, self.width), y1 = min(y + height, self.height)
        guard x0 < x1, y0 < y1, color.a > 0 else { return }
        let stride = self.width * 3
        let alpha = Float(color.a) / 255
        let src = SIMD3<Float>(Float(color.r), Float(color.g), Float(color.b))
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in y0..<y1 {
                let line = base + row * stride
                if color.a == 255 {
                    for column in x0..<x1 {
                        line[column * 3] = color.r; line[column * 3 + 1] = color.g; line[column * 3 + 2] = color.b
                    }
                } else {
                    for column in x0..<x1 { Self.blend(line + column * 3, src, alpha) }
                }
            }
        }
    }

    /// Fills `shape` with `paint`, anti-aliased.
    public mutating func fill(_ shape: Shape, with paint: Paint) {
        rasterize(ShapeGeometry(shape), hole: nil, paint: PaintSampler(paint))
    }

    public mutating func fill(_ shape: Shape, color: RGBA) { fill(shape, with: .solid(color)) }

    /// Strokes the outline of `shape` with a band `thickness` wide lying inside the outline, so the
    /// stroked shape covers exactly the same extent as the filled one. Polygons and capsules are filled.
    public mutating func stroke(_ shape: Shape, thickness: Double, color: RGBA) {
        let hole = shape.inset(by: thickness).map(ShapeGeometry.init)
        rasterize(ShapeGeometry(shape), hole: hole, paint: PaintSampler(.solid(color)))
    }

    /// A straight line with round caps.
    public mutating func drawLine(from: CanvasPoint, to: CanvasPoint, thickness: Double, color: RGBA) {
        fill(.capsule(from: from, to: to, thickness: thickness), color: color)
    }

    /// Blends one pixel (ignored outside the image).
    public mutating func blendPixel(x: Int, y: Int, color: RGBA) {
        fillRect(x: x, y: y, width: 1, height: 1, color: color)
    }

    @inline(__always)
    static func blend(_ pixel: UnsafeMutablePointer<UInt8>, _ src: SIMD3<Float>, _ alpha: Float) {
        let r = Float(pixel[0]), g = Float(pixel[1]), b = Float(pixel[2])
        pixel[0] = UInt8(r + (src.x - r) * alpha + 0.5)
        pixel[1] = UInt8(g + (src.y - g) * alpha + 0.5)
        pixel[2] = UInt8(b + (src.z - b) * alpha + 0.5)
    }

    /// Paints fully covered pixels of one row.
    @inline(__always)
    private static func paintRun(_ line: UnsafeMutablePointer<UInt8>, columns: Range<Int>, row: Int, paint: PaintSampler) {
        if paint.isSolid {
            let color = paint.solidColor
            if color.w >= 0.999 {
                let r = UInt8(color.x + 0.5), g = UInt8(color.y + 0.5), b = UInt8(color.z + 0.5)
                for column in columns { line[column * 3] = r; line[column * 3 + 1] = g; line[column * 3 + 2] = b }
            } else if color.w > 0 {
                let src = SIMD3(color.x, color.y, color.z)
                for column in columns { blend(line + column * 3, src, color.w) }
            }
            return
        }
        for column in columns {
            let color = paint.color(x: column, y: row)
            if color.w >= 0.999 {
                line[column * 3] = UInt8(color.x + 0.5); line[column * 3 + 1] = UInt8(color.y + 0.5); line[column * 3 + 2] = UInt8(color.z + 0.5)
            } else if color.w > 0 {
                blend(line + column * 3, SIMD3(color.x, color.y, color.z), color.w)
            }
        }
    }

    /// Coverage of a pixel whose centre is `distance` from the outline (a one-pixel linear ramp).
    @inline(__always)
    private static func coverage(_ distance: Double) -> Float { Float(min(max(0.5 - distance, 0), 1)) }

    /// Scans the rows of `shape`; pixels in the shape's fully covered span are painted without
    /// distance evaluation, pixels wholly inside `hole` are skipped, the rest get
    /// coverage(shape) − coverage(hole).
    private mutating func rasterize(_ shape: ShapeGeometry, hole: ShapeGeometry?, paint: PaintSampler) {
        let imageWidth = width
        // Non-finite or absurdly far coordinates (bad input) would trap in Int conversion: draw nothing.
        let limit = 1e8
        guard [shape.minX, shape.minY, shape.maxX, shape.maxY].allSatisfy({ abs($0) < limit }) else { return }
        let firstRow = max(Int(floor(shape.minY)), 0), endRow = min(Int(ceil(shape.maxY)), height)
        guard firstRow < endRow, shape.minX < shape.maxX, shape.maxX > 0, shape.minX < Double(imageWidth) else { return }
        let rows = firstRow..<endRow
        let stride = imageWidth * 3
        let solid = paint.isSolid ? paint.solidColor : nil
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in rows {
                let (outer, full) = shape.columns(row: row)
                let skip = hole.map { $0.columns(row: row).full } ?? 0..<0
                let firstColumn = max(outer.lowerBound, 0), endColumn = min(outer.upperBound, imageWidth)
                guard firstColumn < endColumn else { continue }
                let columns = firstColumn..<endColumn
                let line = base + row * stride
                let centerY = Double(row) + 0.5
                var column = columns.lowerBound
                while column < columns.upperBound {
                    if skip.contains(column) { column = skip.upperBound; continue }
                    if hole == nil, full.contains(column) {
                        let end = min(full.upperBound, columns.upperBound)
                        Self.paintRun(line, columns: column..<end, row: row, paint: paint)
                        column = end
                        continue
                    }
                    let centerX = Double(column) + 0.5
                    var cover = Self.coverage(shape.signedDistance(centerX, centerY))
                    if let hole { cover -= Self.coverage(hole.signedDistance(centerX, centerY)) }
                    if cover > 0 {
                        let color = solid ?? paint.color(x: column, y: row)
                        let alpha = cover * color.w
                        let pixel = line + column * 3
                        if alpha >= 0.999 {
                            pixel[0] = UInt8(color.x + 0.5); pixel[1] = UInt8(color.y + 0.5); pixel[2] = UInt8(color.z + 0.5)
                        } else if alpha > 0 {
                            Self.blend(pixel, SIMD3(color.x, color.y, color.z), alpha)
                        }
                    }
                    column += 1
                }
            }
        }
    }
}
