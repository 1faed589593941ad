import CFreeType
import Foundation

/// A face at a size in pixels (per em).
public struct Font: Hashable, Sendable {
    public let face: FontFace
    public let pixelSize: Int

    public init(_ face: FontFace, pixelSize: Int) {
        self.face = face
        self.pixelSize = max(1, pixelSize)
    }
}

/// One rendered glyph: its anti-aliased coverage (0–255), trimmed to the rows and columns with
/// ink, and where that box sits relative to the pen on the baseline (y grows downwards).
/// Immutable once made, so threads read it without a lock.
public final class Glyph: @unchecked Sendable {
    public let width: Int, height: Int
    public let left: Int, top: Int
    /// Pen advance in 1/64 pixel (FreeType's 26.6 fixed point).
    public let advance: Int
    public let coverage: [UInt8]

    init(width: Int, height: Int, left: Int, top: Int, advance: Int, coverage: [UInt8]) {
        self.width = width; self.height = height; self.left = left; self.top = top
        self.advance = advance; self.coverage = coverage
    }
}

/// Line metrics of a font in whole pixels: ascender above and descender below the baseline
/// (the line box), and the cap height (the top of "H") that labels are centred on.
public struct LineMetrics: Equatable, Sendable {
    public let ascent: Int, descent: Int, capHeight: Int
    public init(ascent: Int, descent: Int, capHeight: Int) { self.ascent = ascent; self.descent = descent; self.capHeight = capHeight }
    public var height: Int { ascent + descent }
}

/// Every glyph any thread draws, rendered once per (face, size, character) and kept.
///
/// FreeType's FT_Library and FT_Face are not thread-safe, and the generator renders screens on
/// several threads. One process-wide cache owns the library and the faces and uses them only
/// under its lock; what leaves the lock is immutable (`Glyph`, `LineMetrics`). This keeps one
/// copy of each face and each rendered glyph (per-thread libraries would open every face and
/// render every glyph once per thread), and the lock is cheap: after the first screens nearly
/// every lookup is a dictionary hit, one lock round per line of text.
public final class GlyphCache: @unchecked Sendable {
    public static let shared = GlyphCache()

    private let lock = NSLock()
    /// Fonts are numbered on first use so that a glyph's key is one integer (font << 32 | scalar):
    /// hashing the face's names for every character made lookups the cost of drawing text.
    private var fonts: [Font: (number: UInt64, metrics: LineMetrics)] = [:]
    private var library: FT_Library?
    private var faces: [FontFace: FT_Face] = [:]
    private var glyphs: [UInt64: Glyph] = [:]

    init() {}

    /// Opens `face` (once) and throws a clear error when its file is missing or unreadable.
    public func load(_ face: FontFace) throws {
        lock.lock(); defer { lock.unlock() }
        _ = try openFace(face)
    }

    public func lineMetrics(_ font: Font) throws -> LineMetrics {
        lock.lock(); defer { lock.unlock() }
        return try lockedFont(font).metrics
    }

    /// The glyphs of `scalars` in `font`, rendered as needed; one lock round for the whole line.
    public func glyphs(_ scalars: [Unicode.Scalar], font: Font) throws -> (glyphs: [Glyph], metrics: LineMetrics) {
        lock.lock(); defer { lock.unlock() }
        let (number, lineMetrics) = try lockedFont(font)
        var result: [Glyph] = []
        result.reserveCapacity(scalars.count)
        for scalar in scalars {
            let key = number << 32 | UInt64(scalar.value)
            if let glyph = glyphs[key] { result.append(glyph); continue }
            let glyph = try render(scalar, font: font)
            glyphs[key] = glyph
            result.append(glyph)
        }
        return (result, lineMetrics)
    }

    /// Whether `face` has a glyph for `scalar` (not the missing-glyph box).
    public func covers(_ face: FontFace, _ scalar: Unicode.Scalar) throws -> Bool {
        lock.lock(); defer { lock.unlock() }
        return FT_Get_Char_Index(try openFace(face), FT_ULong(scalar.value)) != 0
    }

    // MARK: Under the lock

    private func openFace(_ face: FontFace) throws -> FT_Face {
        if let open = faces[face] { return open }
        try face.checkInstalled()
        if library == nil {
            var created: FT_Library?
            let error = FT_Init_FreeType(&created)
            guard error == 0, let created else { throw FontError.freeType("FT_Init_FreeType", code: error, path: face.path) }
            library = created
        }
        var opened: FT_Face?
        let error = FT_New_Face(library, face.path, FT_Long(face.index), &opened)
        guard error == 0, let opened else { throw FontError.freeType("FT_New_Face", code: error, path: face.path) }
        faces[face] = opened
        return opened
    }

    private func sized(_ font: Font) throws -> FT_Face {
        let face = try openFace(font.face)
        let error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(font.pixelSize))
        guard error == 0 else { throw FontError.freeType("FT_Set_Pixel_Sizes(\(font.pixelSize))", code: error, path: font.face.path) }
        return face
    }

    private func lockedFont(_ font: Font) throws -> (number: UInt64, metrics: LineMetrics) {
        if let known = fonts[font] { return known }
        let face = try sized(font)
        let size = face.pointee.size.pointee.metrics
        let ascent = Int((size.ascender + 63) >> 6), descent = Int((-size.descender + 63) >> 6)
        let h = try render("H", font: font)
        let metrics = LineMetrics(ascent: ascent, descent: descent, capHeight: h.height > 0 ? -h.top : (ascent * 7) / 10)
        let result = (number: UInt64(fonts.count), metrics: metrics)
        fonts[font] = result
        return result
    }

    private func render(_ scalar: Unicode.Scalar, font: Font) throws -> Glyph {
        let face = try sized(font)
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        var error = FT_Load_Glyph(face, index, CFreeTypeLoadFlags)
        guard error == 0, let slot = face.pointee.glyph else { throw FontError.freeType("FT_Load_Glyph(U+\(String(scalar.value, radix: 16)))", code: error, path: font.face.path) }
        if font.face.embolden {
            // About a 24th of the em, as FreeType's own FT_GlyphSlot_Embolden; the advance grows with it.
            let strength = FT_Pos(font.pixelSize * 64 / 24)
            FT_Outline_Embolden(&slot.pointee.outline, strength)
            slot.pointee.advance.x += strength
        }
        error = FT_Render_Glyph(slot, CFreeTypeRenderMode)
        guard error == 0 else { throw FontError.freeType("FT_Render_Glyph(U+\(String(scalar.value, radix: 16)))", code: error, path: font.face.path) }
        let bitmap = slot.pointee.bitmap
        let rows = Int(bitmap.rows), columns = Int(bitmap.width), pitch = Int(bitmap.pitch)
        let advance = Int(slot.pointee.advance.x)
        // Trim to the ink: the bitmap is the outline's control box, which can hold empty rows.
        var minX = columns, maxX = -1, minY = rows, maxY = -1
        if let buffer = bitmap.buffer, pitch > 0 {
            for y in 0..<rows {
                for x in 0..<columns where buffer[y * pitch + x] != 0 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard maxX >= minX, maxY >= minY, let buffer = bitmap.buffer else {
            return Glyph(width: 0, height: 0, left: 0, top: 0, advance: advance, coverage: [])
        }
        let width = maxX - minX + 1, height = maxY - minY + 1
        var coverage = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { coverage[y * width + x] = buffer[(y + minY) * pitch + x + minX] }
        }
        return Glyph(width: width, height: height, left: Int(slot.pointee.bitmap_left) + minX,
                     top: -Int(slot.pointee.bitmap_top) + minY, advance: advance, coverage: coverage)
    }
}
