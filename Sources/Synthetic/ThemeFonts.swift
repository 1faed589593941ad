import Support
import Typography

/// An app's type: a sans-serif family and a size for each step of the generator's type scale
/// (the bitmap font's factors 1–4: caption, body, title, large title), like an app's text styles.
struct ThemeFonts {
    let family: FontFamily
    /// Points, indexed by factor − 1.
    let sizes: [Int]

    init(_ rng: inout SeededRandom, words: Lexicon) {
        let families = words.needsCJKFont ? FontFamily.cjk : FontFamily.alphabetic
        family = families[rng.int(in: 0..<families.count)]
        // iOS's caption/footnote 12–13, body 15–17, title 20–24, large title 28–34.
        sizes = [rng.int(in: 12...13), rng.int(in: 15...17), rng.int(in: 20...24), rng.int(in: 28...34)]
    }

    init(family: FontFamily, sizes: [Int]) {
        self.family = family
        self.sizes = sizes
    }

    func font(factor: Int, bold: Bool, scale: Int) -> Font {
        Font(bold ? family.bold : family.regular, pixelSize: sizes[min(max(factor, 1), sizes.count) - 1] * scale)
    }
}
