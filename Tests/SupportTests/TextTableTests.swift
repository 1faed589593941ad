import Support
import XCTest

final class TextTableTests: XCTestCase {
    func testColumnsAlignAndLinesEndWithoutPadding() {
        let table = TextTable(header: ["run", "mAP"], rows: [["a", "0.9"], ["longer-name", "0.85"]])
        XCTAssertEqual(table.terminal(), """
            run           mAP
            -----------  ----
            a             0.9
            longer-name  0.85
            """)
        let left = TextTable(header: ["name", "note"], rows: [["x", ""], ["y", "a note"]], leftAligned: [1])
        XCTAssertEqual(left.terminal().split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                       ["name  note", "----  ------", "x", "y     a note"])
    }

    /// A registry cell of 16,000 characters (the registry fuzzer's find: the old regular-expression
    /// trim backtracked over the padding for 13 s) renders, each line trimmed.
    func testAVeryLongCellRenders() {
        let long = String(repeating: "é", count: 16_000)
        let lines = TextTable(header: ["name", "x"], rows: [[long, "1"], ["b", "2"]], leftAligned: [0]).terminal().split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(lines[2], Substring(long + "  1"))
        XCTAssertEqual(lines[3], Substring("b" + String(repeating: " ", count: 16_000 + 1) + "2"))
        XCTAssertFalse(lines.contains { $0.last?.isWhitespace == true })
    }
}
