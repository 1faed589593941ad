import Data
import Imaging
import Support

/// What the model will see: the loader's own augmented samples with their boxes and class
/// names drawn, tiled into sheets (`screenlab augment preview`).
public enum AugmentPreview {
    /// The first `count` samples the loader delivers from `epoch` on (continuing into the next
    /// epochs if one is shorter), `perSheet` to a sheet.
    public static func sheets(_ loader: DataLoader, classNames: [String], count: Int, columns: Int, perSheet: Int = 16,
                              epoch: Int = 0) throws -> [RGBImage] {
        let progress = ProgressLine("preview", total: count, unit: "images")
        var tiles: [RGBImage] = []
        var currentEpoch = epoch, position = 0, epochLength = loader.epochOrder(epoch).count
        while tiles.count < count {
            if position == epochLength {
                currentEpoch += 1
                position = 0
                epochLength = loader.epochOrder(currentEpoch).count
                continue
            }
            let sample = try loader.augmentedSample(epoch: currentEpoch, position: position).sample
            tiles.append(overlay(sample, classNames: classNames))
            position += 1
            progress.advance()
        }
        progress.finish()
        return stride(from: 0, to: tiles.count, by: max(1, perSheet)).map { start in
            ContactSheet.compose(Array(tiles[start..<min(tiles.count, start + perSheet)]), columns: columns)
        }
    }

    /// The image with each box outlined in its class colour and labelled with the class name.
    public static func overlay(_ sample: AnnotatedImage, classNames: [String]) -> RGBImage {
        var image = sample.image
        let boxes: [OverlayBox] = sample.annotations.map { annotation in
            let name = classNames.indices.contains(annotation.classIndex) ? classNames[annotation.classIndex] : "class \(annotation.classIndex)"
            return (annotation.box.x, annotation.box.y, annotation.box.width, annotation.box.height, name, annotation.classIndex)
        }
        drawBoxes(boxes, on: &image, lineWidth: 1)
        return image
    }
}
