import Foundation

/// One font file (a face in it) from a Debian font package, found at run time by its path
/// under /usr/share/fonts. `embolden` draws a bold weight from a regular file by thickening the
/// outlines (for faces that ship no bold, such as WenQuanYi Micro Hei).
public struct FontFace: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let path: String
    /// The Debian package that installs `path` (named in the error when it is missing).
    public let package: String
    public let index: Int
    public let embolden: Bool

    public init(name: String, path: String, package: String, index: Int = 0, embolden: Bool = false) {
        self.name = name
        self.path = path
        self.package = package
        self.index = index
        self.embolden = embolden
    }

    public var description: String { name }

    /// Throws `FontError.missingFile` naming the package when the file is not there.
    public func checkInstalled() throws {
        guard FileManager.default.isReadableFile(atPath: path) else { throw FontError.missingFile(path: path, face: name, package: package) }
    }
}

/// A regular and a bold face that go together.
public struct FontFamily: Hashable, Sendable {
    public let name: String
    public let regular: FontFace
    public let bold: FontFace

    public var faces: [FontFace] { [regular, bold] }

    /// Proportional sans-serif families from small Debian packages (Scripts/install-dependencies
    /// installs them). All cover Latin, Greek and Cyrillic; WenQuanYi Micro Hei covers Chinese and
    /// Japanese kana as well as Latin.
    public static let dejaVuSans = latin("DejaVu Sans", "/usr/share/fonts/truetype/dejavu/DejaVuSans", regular: ".ttf", bold: "-Bold.ttf", package: "fonts-dejavu-core")
    public static let dejaVuSansCondensed = latin("DejaVu Sans Condensed", "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed",
                                                  regular: ".ttf", bold: "-Bold.ttf", package: "fonts-dejavu-extra")
    public static let liberationSans = latin("Liberation Sans", "/usr/share/fonts/truetype/liberation2/LiberationSans",
                                             regular: "-Regular.ttf", bold: "-Bold.ttf", package: "fonts-liberation2")
    public static let roboto = latin("Roboto", "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto",
                                     regular: "-Regular.ttf", bold: "-Bold.ttf", package: "fonts-roboto-unhinted")
    public static let openSans = latin("Open Sans", "/usr/share/fonts/truetype/open-sans/OpenSans",
                                       regular: "-Regular.ttf", bold: "-Bold.ttf", package: "fonts-open-sans")
    public static let wenQuanYiMicroHei: FontFamily = {
        let path = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
        return FontFamily(name: "WenQuanYi Micro Hei",
                          regular: FontFace(name: "WenQuanYi Micro Hei", path: path, package: "fonts-wqy-microhei"),
                          bold: FontFace(name: "WenQuanYi Micro Hei (emboldened)", path: path, package: "fonts-wqy-microhei", embolden: true))
    }()

    /// Families for Latin, Greek and Cyrillic text, and for CJK text.
    public static let alphabetic: [FontFamily] = [dejaVuSans, dejaVuSansCondensed, liberationSans, roboto, openSans]
    public static let cjk: [FontFamily] = [wenQuanYiMicroHei]
    public static let all = alphabetic + cjk

    private static func latin(_ name: String, _ stem: String, regular: String, bold: String, package: String) -> FontFamily {
        FontFamily(name: name, regular: FontFace(name: name, path: stem + regular, package: package),
                   bold: FontFace(name: name + " Bold", path: stem + bold, package: package))
    }
}

public enum FontError: Error, CustomStringConvertible, Equatable {
    case missingFile(path: String, face: String, package: String)
    case freeType(String, code: Int32, path: String)

    public var description: String {
        switch self {
        case let .missingFile(path, face, package):
            return "font file \(path) (\(face)) is missing: install the Debian package \(package) (sudo apt-get install -y \(package), or run Scripts/install-dependencies)"
        case let .freeType(call, code, path):
            return "FreeType \(call) failed with error \(code) for \(path): the font file may be damaged; reinstall its Debian package"
        }
    }
}
