/// A rectangle that does not fit the image it was applied to.
public struct ImageGeometryError: Error, CustomStringConvertible, Equatable, Sendable {
    public let operation: String
    public let detail: String
    public var description: String { "\(operation): \(detail)" }
}

extension RGBImage {
    /// The pixels of the rectangle. Throws rather than clamps when the rectangle leaves the
    /// image or is empty: a silently shrunk crop would shift every box computed for it.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws -> RGBImage {
        guard width > 0, height > 0, x >= 0, y >= 0, x + width <= self.width, y + height <= self.height else {
            throw ImageGeometryError(operation: "crop",
                                     detail: "rectangle x \(x), y \(y), \(width)×\(height) is empty or outside the \(self.width)×\(self.height) image")
        }
        let rowBytes = width * 3
        let output = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    let start = source.baseAddress! + ((y + row) * self.width + x) * 3
                    (buffer.baseAddress! + row * rowBytes).initialize(from: start, count: rowBytes)
                }
            }
            count = rowBytes * height
        }
        return RGBImage(width: width, height: height, pixels: output)
    }

    /// This image with borders of `fill` added (each amount ≥ 0).
    public func padded(left: Int = 0, top: Int = 0, right: Int = 0, bottom: Int = 0, fill: RGB) -> RGBImage {
        precondition(left >= 0 && top >= 0 && right >= 0 && bottom >= 0, "padded: negative border \(left), \(top), \(right), \(bottom)")
        var canvas = RGBImage(width: width + left + right, height: height + top + bottom, fill: fill)
        canvas.paste(self, x: left, y: top)
        return canvas
    }

    /// Copies `image` with its top-left corner at (x, y); it must fit inside this image.
    public mutating func paste(_ image: RGBImage, x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + image.width <= width && y + image.height <= height,
                     "paste: \(image.width)×\(image.height) at (\(x), \(y)) does not fit \(width)×\(height)")
        let rowBytes = image.width * 3, canvasWidth = width
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<image.height {
                    (target.baseAddress! + ((y + row) * canvasWidth + x) * 3)
                        .update(from: source.baseAddress! + row * rowBytes, count: rowBytes)
                }
            }
        }
    }
}
