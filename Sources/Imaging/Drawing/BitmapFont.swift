/// A built-in 5×7 pixel font for printable ASCII (32–126), drawn at an integer scale.
/// Capitals and digits occupy rows 0–6 of a 9-row cell; rows 7–8 hold descenders (g j p q y , ;).
/// The glyphs were drawn by hand for ScreenLab.
public enum BitmapFont {
    public static let glyphWidth = 5
    /// Glyph width plus one column of spacing.
    public static let advance = 6
    public static let capHeight = 7
    /// Cap height plus the two descender rows: the height of a text line's box.
    public static let cellHeight = 9

    /// Size in pixels of `text` drawn at `scale`: `advance·n − 1` columns (no trailing gap) by `cellHeight` rows, times `scale`.
    public static func measure(_ text: String, scale: Int = 1) -> (width: Int, height: Int) {
        let count = text.unicodeScalars.count
        return (count == 0 ? 0 : (advance * count - 1) * scale, cellHeight * scale)
    }

    /// Rows of one glyph, top first; bit 4 is the leftmost column. Unprintable characters map to '?'.
    static func rows(for scalar: Unicode.Scalar) -> [UInt8] {
        let code = Int(scalar.value)
        return (32...126).contains(code) ? glyphs[code - 32] : glyphs[Int(("?" as Unicode.Scalar).value) - 32]
    }

    /// Parsed once from `glyphArt`: one line per character in code order, `#` = ink.
    static let glyphs: [[UInt8]] = {
        let lines = glyphArt.split(separator: "\n", omittingEmptySubsequences: true)
        precondition(lines.count == 95, "BitmapFont: \(lines.count) glyph lines, expected 95")
        return lines.map { line in
            line.dropFirst(2).split(separator: " ").map { row in
                row.reduce(UInt8(0)) { bits, pixel in bits << 1 | (pixel == "#" ? 1 : 0) }
            }
        }
    }()

    // Each line: the character, a space, then 7 (9 with descender) rows of 5 columns.
    private static let glyphArt = """
      ..... ..... ..... ..... ..... ..... .....
    ! ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..
    " .#.#. .#.#. .#.#. ..... ..... ..... .....
    # .#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.
    $ ..#.. .#### #.#.. .###. ..#.# ####. ..#..
    % ##... ##..# ...#. ..#.. .#... #..## ...##
    & .##.. #..#. #.#.. .#... #.#.# #..#. .##.#
    ' ..#.. ..#.. .#... ..... ..... ..... .....
    ( ...#. ..#.. .#... .#... .#... ..#.. ...#.
    ) .#... ..#.. ...#. ...#. ...#. ..#.. .#...
    * ..... ..#.. #.#.# .###. #.#.# ..#.. .....
    + ..... ..#.. ..#.. ##### ..#.. ..#.. .....
    , ..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...
    - ..... ..... ..... .###. ..... ..... .....
    . ..... ..... ..... ..... ..... .##.. .##..
    / ....# ...#. ...#. ..#.. .#... .#... #....
    0 .###. #...# #..## #.#.# ##..# #...# .###.
    1 ..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.
    2 .###. #...# ....# ...#. ..#.. .#... #####
    3 ####. ....# ....# .###. ....# ....# ####.
    4 ...#. ..##. .#.#. #..#. ##### ...#. ...#.
    5 ##### #.... ####. ....# ....# #...# .###.
    6 .###. #.... #.... ####. #...# #...# .###.
    7 ##### ....# ...#. ..#.. .#... .#... .#...
    8 .###. #...# #...# .###. #...# #...# .###.
    9 .###. #...# #...# .#### ....# ....# .###.
    : ..... .##.. .##.. ..... .##.. .##.. .....
    ; ..... .##.. .##.. ..... ..... .##.. .##.. ..#.. .#...
    < ...#. ..#.. .#... #.... .#... ..#.. ...#.
    = ..... ..... ##### ..... ##### ..... .....
    > .#... ..#.. ...#. ....# ...#. ..#.. .#...
    ? .###. #...# ....# ...#. ..#.. ..... ..#..
    @ .###. #...# #.### #.#.# #.### #.... .####
    A .###. #...# #...# ##### #...# #...# #...#
    B ####. #...# #...# ####. #...# #...# ####.
    C .###. #...# #.... #.... #.... #...# .###.
    D ####. #...# #...# #...# #...# #...# ####.
    E ##### #.... #.... ####. #.... #.... #####
    F ##### #.... #.... ####. #.... #.... #....
    G .###. #...# #.... #.### #...# #...# .####
    H #...# #...# #...# ##### #...# #...# #...#
    I .###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
    J ..### ...#. ...#. ...#. ...#. #..#. .##..
    K #...# #..#. #.#.. ##... #.#.. #..#. #...#
    L #.... #.... #.... #.... #.... #.... #####
    M #...# ##.## #.#.# #.#.# #...# #...# #...#
    N #...# #...# ##..# #.#.# #..## #...# #...#
    O .###. #...# #...# #...# #...# #...# .###.
    P ####. #...# #...# ####. #.... #.... #....
    Q .###. #...# #...# #...# #.#.# #..#. .##.#
    R ####. #...# #...# ####. #.#.. #..#. #...#
    S .#### #.... #.... .###. ....# ....# ####.
    T ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
    U #...# #...# #...# #...# #...# #...# .###.
    V #...# #...# #...# #...# #...# .#.#. ..#..
    W #...# #...# #...# #.#.# #.#.# #.#.# .#.#.
    X #...# #...# .#.#. ..#.. .#.#. #...# #...#
    Y #...# #...# .#.#. ..#.. ..#.. ..#.. ..#..
    Z ##### ....# ...#. ..#.. .#... #.... #####
    [ .###. .#... .#... .#... .#... .#... .###.
    \\ #.... .#... .#... ..#.. ...#. ...#. ....#
    ] .###. ...#. ...#. ...#. ...#. ...#. .###.
    ^ ..#.. .#.#. #...# ..... ..... ..... .....
    _ ..... ..... ..... ..... ..... ..... #####
    ` .#... ..#.. ...#. ..... ..... ..... .....
    a ..... ..... .###. ....# .#### #...# .####
    b #.... #.... #.##. ##..# #...# #...# ####.
    c ..... ..... .###. #.... #.... #...# .###.
    d ....# ....# .##.# #..## #...# #...# .####
    e ..... ..... .###. #...# ##### #.... .###.
    f ..##. .#..# .#... ###.. .#... .#... .#...
    g ..... ..... .#### #...# #...# #...# .#### ....# .###.
    h #.... #.... #.##. ##..# #...# #...# #...#
    i ..#.. ..... .##.. ..#.. ..#.. ..#.. .###.
    j ...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..
    k #.... #.... #..#. #.#.. ##... #.#.. #..#.
    l .##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
    m ..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#
    n ..... ..... #.##. ##..# #...# #...# #...#
    o ..... ..... .###. #...# #...# #...# .###.
    p ..... ..... ####. #...# #...# #...# ####. #.... #....
    q ..... ..... .#### #...# #...# #...# .#### ....# ....#
    r ..... ..... #.##. ##..# #.... #.... #....
    s ..... ..... .###. #.... .###. ....# ####.
    t .#... .#... ###.. .#... .#... .#..# ..##.
    u ..... ..... #...# #...# #...# #..## .##.#
    v ..... ..... #...# #...# #...# .#.#. ..#..
    w ..... ..... #...# #...# #.#.# #.#.# .#.#.
    x ..... ..... #...# .#.#. ..#.. .#.#. #...#
    y ..... ..... #...# #...# #...# #...# .#### ....# .###.
    z ..... ..... ##### ...#. ..#.. .#... #####
    { ...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.
    | ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
    } .#... ..#.. ..#.. ...#. ..#.. ..#.. .#...
    ~ ..... ..... .#... #.#.# ...#. ..... .....
    """
}

extension RGBImage {
    /// Draws one line of `text` with its cell's top-left corner at (x, y); returns the drawn width
    /// (`BitmapFont.measure(text, scale:).width`). Ink is clipped to the image.
    @discardableResult
    public mutating func drawText(_ text: String, x: Int, y: Int, scale: Int = 1, color: RGBA) -> Int {
        let scale = max(scale, 1)
        var penX = x
        for scalar in text.unicodeScalars {
            let rows = BitmapFont.rows(for: scalar)
            for (rowIndex, bits) in rows.enumerated() where bits != 0 {
                // Merge horizontal runs of ink so each run is one rectangle fill.
                var column = 0
                while column < BitmapFont.glyphWidth {
                    guard bits & (0x10 >> column) != 0 else { column += 1; continue }
                    var end = column
                    while end < BitmapFont.glyphWidth, bits & (0x10 >> end) != 0 { end += 1 }
                    fillRect(x: penX + column * scale, y: y + rowIndex * scale, width: (end - column) * scale, height: scale, color: color)
                    column = end
                }
            }
            penX += BitmapFont.advance * scale
        }
        return BitmapFont.measure(text, scale: scale).width
    }
}
