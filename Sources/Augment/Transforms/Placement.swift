import Foundation
import Imaging

/// Drawing one image into another under a `BoxMap`, with pixel-exact boxes.
///
/// The destination rectangle is rounded to whole pixels, so the map that was really applied
/// differs slightly from the requested one; it is returned, and boxes must be moved with it
/// (never with the requested map) so that they sit exactly on the pixels drawn.
enum Placement {
    /// Draws the part of `source` that `requested` sends into `canvas`; returns the map applied.
    /// With `visible`, only the canvas pixels inside it are written (the others keep what they
    /// held): those a later step will read, with the bits a whole drawing gives them.
    @discardableResult
    static func draw(_ source: RGBImage, mappedBy requested: BoxMap, into canvas: inout RGBImage,
                     visible: (columns: Range<Int>, rows: Range<Int>)? = nil) -> BoxMap {
        guard let plan = plan(sourceWidth: source.width, sourceHeight: source.height, map: requested,
                              canvasWidth: canvas.width, canvasHeight: canvas.height) else { return requested }
        let region = plan.sourceRegion, destination = plan.destination
        let visibleColumns = visible?.columns, visibleRows = visible?.rows
        if region.width == destination.width, region.height == destination.height {
            // Unit scale: `region` is exactly what lands on the canvas, so shifting the whole source copies just it.
            Blit.copy(source, to: &canvas, atX: destination.x - region.x, y: destination.y - region.y,
                      visibleColumns: visibleColumns, visibleRows: visibleRows)
        } else {
            // Area when shrinking (bilinear aliases thin UI strokes away), bilinear when growing:
            // the choice `letterboxed()` makes at inference.
            canvas.drawResampled(source, sourceX: region.x, sourceY: region.y, sourceWidth: region.width, sourceHeight: region.height,
                                 width: destination.width, height: destination.height, atX: destination.x, y: destination.y,
                                 resampling: .automatic(sourceWidth: region.width, sourceHeight: region.height,
                                                        targetWidth: destination.width, targetHeight: destination.height),
                                 visibleColumns: visibleColumns, visibleRows: visibleRows)
        }
        return plan.applied
    }

    struct Region: Equatable {
        var x: Int, y: Int, width: Int, height: Int
        var columns: Range<Int> { x..<x + width }
        var rows: Range<Int> { y..<y + height }
    }

    struct Plan: Equatable {
        /// Whole-pixel part of the source that lands on the canvas.
        var sourceRegion: Region
        /// Where it lands (may stick out of the canvas by under one source pixel's worth).
        var destination: Region
        /// The map really applied: sourceRegion → destination.
        var applied: BoxMap
    }

    /// Nil when no source pixel lands on the canvas.
    static func plan(sourceWidth: Int, sourceHeight: Int, map: BoxMap, canvasWidth: Int, canvasHeight: Int) -> Plan? {
        guard let (x0, x1, dx0, dx1) = axis(size: sourceWidth, scale: map.scaleX, offset: map.offsetX, canvas: canvasWidth),
              let (y0, y1, dy0, dy1) = axis(size: sourceHeight, scale: map.scaleY, offset: map.offsetY, canvas: canvasHeight)
        else { return nil }
        let scaleX = Double(dx1 - dx0) / Double(x1 - x0), scaleY = Double(dy1 - dy0) / Double(y1 - y0)
        let applied = BoxMap(scaleX: scaleX, scaleY: scaleY,
                             offsetX: Double(dx0) - Double(x0) * scaleX, offsetY: Double(dy0) - Double(y0) * scaleY)
        return Plan(sourceRegion: Region(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                    destination: Region(x: dx0, y: dy0, width: dx1 - dx0, height: dy1 - dy0), applied: applied)
    }

    /// One axis: the whole source pixels [s0, s1) that reach [0, canvas) and their rounded destination [d0, d1).
    private static func axis(size: Int, scale: Double, offset: Double, canvas: Int) -> (Int, Int, Int, Int)? {
        guard scale > 0, size > 0, canvas > 0 else { return nil }
        let visibleLow = max(0, -offset / scale), visibleHigh = min(Double(size), (Double(canvas) - offset) / scale)
        // The epsilon keeps an exact integer edge (the common case) from growing by a whole pixel.
        let s0 = Int((visibleLow + 1e-9).rounded(.down)), s1 = Int((visibleHigh - 1e-9).rounded(.up))
        guard s1 > s0 else { return nil }
        let d0 = Int((Double(s0) * scale + offset).rounded()), d1 = Int((Double(s1) * scale + offset).rounded())
        guard d1 > d0 else { return nil }
        return (s0, s1, d0, d1)
    }
}

/// Whole-pixel copies between images (no resampling), clipped to the destination (and to its
/// `visibleColumns` × `visibleRows`, default all of it).
enum Blit {
    static func copy(_ patch: RGBImage, to canvas: inout RGBImage, atX x: Int, y: Int,
                     visibleColumns: Range<Int>? = nil, visibleRows: Range<Int>? = nil) {
        let visibleX = (visibleColumns ?? 0..<canvas.width).clamped(to: 0..<canvas.width)
        let visibleY = (visibleRows ?? 0..<canvas.height).clamped(to: 0..<canvas.height)
        let left = max(0, visibleX.lowerBound - x), top = max(0, visibleY.lowerBound - y)
        let right = min(patch.width, visibleX.upperBound - x), bottom = min(patch.height, visibleY.upperBound - y)
        guard right > left, bottom > top else { return }
        let rowBytes = (right - left) * 3
        patch.pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                for row in top..<bottom {
                    let from = source.baseAddress! + ((row * patch.width) + left) * 3
                    let to = target.baseAddress! + (((row + y) * canvas.width) + left + x) * 3
                    to.update(from: from, count: rowBytes)
                }
            }
        }
    }
}
