import Imaging

extension SyntheticScreenGenerator {
    /// The first `count` screens in a grid, without and with their labelled boxes
    /// (class-coloured outlines, class names in the tags).
    public func preview(count: Int, columns: Int) -> (plain: RGBImage, boxed: RGBImage) {
        var plain: [RGBImage] = [], boxed: [RGBImage] = []
        for index in 0..<max(count, 0) {
            var (image, sample) = render(index: index)
            plain.append(image)
            let boxes: [OverlayBox] = sample.annotations.map {
                (x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height, label: classes[$0.classIndex], colorIndex: $0.classIndex)
            }
            drawBoxes(boxes, on: &image, lineWidth: config.scale, textScale: config.scale)
            boxed.append(image)
        }
        return (ContactSheet.grid(plain, columns: columns), ContactSheet.grid(boxed, columns: columns))
    }
}
