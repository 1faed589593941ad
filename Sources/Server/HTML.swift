import Foundation
import Plotting

/// Pieces of the workbench's pages: escaping, the page shell (navigation, styles, script), number
/// formats. Pages are plain server-rendered HTML; the script only sorts, filters, polls and
/// moves threshold points, so every figure a test reads is in the HTML or in `data-*` attributes.
enum HTML {
    /// Text and attribute values escaped: the same five characters Plotting's SVG writer escapes.
    static func escape(_ text: String) -> String { SVG.escape(text) }

    /// A query-string or path component (RFC 3986 unreserved characters kept).
    static func urlComponent(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A whole page: `title`, the navigation bar, then `body`.
    static func page(title: String, body: String, script: Bool = true) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · ScreenLab</title><link rel="stylesheet" href="/assets/workbench.css"></head>
        <body><nav class="top"><a class="brand" href="/">ScreenLab</a><a href="/">Runs</a></nav>
        <main>
        \(body)
        </main>
        \(script ? "<script src=\"/assets/workbench.js\"></script>" : "")
        </body></html>

        """
    }

    /// An AP-like figure as the reports print it (0.877), "—" when absent.
    static func figure(_ value: Double?, digits: Int = 3) -> String {
        guard let value, value.isFinite else { return "—" }
        return String(format: "%.\(digits)f", value)
    }

    /// `data-value` for sorting: the number, or empty so absent values sort last.
    static func sortValue(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return String(value)
    }
}
