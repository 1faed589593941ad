import Imaging

/// §5.3: "Within each Tab, we extract the most frequent color as the background color, and
/// the second most frequent color as the tint color. Among all Tab Buttons, we find the one
/// with an outlier tint color. Finally, we assign a "selected" state to that detection, and a
/// "not selected" state to the remaining detections."
public enum TabSelection {
    /// The tab bar's hints with ", selected" on the one tab whose tint stands out and ", not
    /// selected" on the others; unchanged when no single tab stands out.
    ///
    /// Our readings: colours are counted in bins of 32 levels per channel (anti-aliased edges
    /// then fall into the bins of the colours they blend); a tint is an outlier when it is at
    /// least `minimumTintDistance` (RGB distance) from every other tab's tint and it is the
    /// only such tab — so a bar of two tabs, where both would stand out, gets no state.
    public static func apply(_ elements: [AccessibleElement], image: RGBImage, minimumTintDistance: Double = 60) -> [AccessibleElement] {
        let tabs = elements.indices.filter { elements[$0].grouping == .tabButton }
        guard tabs.count >= 2 else { return elements }
        let tints = tabs.map { tint(in: image, box: elements[$0].box) }
        guard let selected = outlier(tints, minimumDistance: minimumTintDistance) else { return elements }
        var result = elements
        for (position, index) in tabs.enumerated() {
            let state = position == selected ? "selected" : "not selected"
            result[index].labelHint = [result[index].labelHint, state].compactMap { $0 }.joined(separator: ", ")
        }
        return result
    }

    /// The second most frequent colour bin's mean colour inside `box` (clipped to the image);
    /// nil when the box holds fewer than two colours.
    static func tint(in image: RGBImage, box: BoundingBox) -> SIMD3<Double>? {
        guard box.isFinite else { return nil }
        let x0 = max(0, Int(box.minX.rounded(.down))), y0 = max(0, Int(box.minY.rounded(.down)))
        let x1 = min(image.width, Int(box.maxX.rounded(.up))), y1 = min(image.height, Int(box.maxY.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return nil }
        var count = [Int](repeating: 0, count: 512), sum = [SIMD3<Double>](repeating: .zero, count: 512)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = (y * image.width + x) * 3
                    let r = pixels[i], g = pixels[i + 1], b = pixels[i + 2]
                    let bin = Int(r >> 5) << 6 | Int(g >> 5) << 3 | Int(b >> 5)
                    count[bin] += 1
                    sum[bin] += SIMD3(Double(r), Double(g), Double(b))
                }
            }
        }
        let ranked = count.indices.filter { count[$0] > 0 }.sorted { (count[$0], -$0) > (count[$1], -$1) }
        guard ranked.count >= 2 else { return nil }
        return sum[ranked[1]] / Double(count[ranked[1]])
    }

    /// The position of the only tint at least `minimumDistance` from all the others, if any.
    static func outlier(_ tints: [SIMD3<Double>?], minimumDistance: Double) -> Int? {
        guard tints.count >= 2, tints.allSatisfy({ $0 != nil }) else { return nil }
        let colors = tints.map { $0! }
        func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let standing = colors.indices.filter { i in
            colors.indices.allSatisfy { j in j == i || distance(colors[i], colors[j]) >= minimumDistance }
        }
        return standing.count == 1 ? standing[0] : nil
    }
}
