import Imaging

extension Placement {
    /// The pixels of `region` scaled to `width`×`height` with Imaging's filters: area when
    /// shrinking (bilinear aliases thin UI strokes away), bilinear when growing — the choice
    /// `letterboxed()` makes at inference.
    static func resizedCrop(_ image: RGBImage, region: Region, width: Int, height: Int) -> RGBImage {
        let part: RGBImage
        if region.x == 0, region.y == 0, region.width == image.width, region.height == image.height {
            part = image
        } else {
            do {
                part = try image.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
            } catch {
                preconditionFailure("Placement.plan produced a region outside the image: \(error)")
            }
        }
        return part.resized(width: width, height: height,
                            resampling: .automatic(sourceWidth: region.width, sourceHeight: region.height,
                                                   targetWidth: width, targetHeight: height))
    }
}
