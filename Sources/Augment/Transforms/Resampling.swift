import Imaging

/// TEMPORARY until Imaging's crop/resize land: nearest-neighbour, replaced by Imaging's bilinear/area resize.
enum Resampling {
    static func resizedCrop(_ image: RGBImage, region: Placement.Region, width: Int, height: Int) -> RGBImage {
        var out = RGBImage(width: width, height: height)
        for y in 0..<height {
            let sy = region.y + min(region.height - 1, y * region.height / height)
            for x in 0..<width {
                let sx = region.x + min(region.width - 1, x * region.width / width)
                out[x, y] = image[sx, sy]
            }
        }
        return out
    }
}
