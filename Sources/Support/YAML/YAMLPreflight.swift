/// Limits a YAML document must meet before it reaches the parser.
///
/// Yams (libyaml) composes recursively: a few thousand nested levels overflow the stack and kill
/// the process, and alias chains ("billion laughs") expand exponentially when anything walks
/// the result. So the text is measured first, by a byte scan that over-estimates nesting (each
/// block indentation level, `- ` indicator and open flow bracket counts), and the composed
/// document's expanded size is counted against a budget before any reader walks it.
public struct YAMLLimits: Equatable, Sendable {
    public var maximumBytes: Int
    public var maximumDepth: Int
    public var maximumAliases: Int
    /// Scalars, lists and mappings of the document with every alias expanded.
    public var maximumNodes: Int

    /// Configs, presets, thresholds and data.yaml files are a few kilobytes and a few levels deep.
    public init(maximumBytes: Int = 4 << 20, maximumDepth: Int = 64, maximumAliases: Int = 64, maximumNodes: Int = 1_000_000) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumAliases = maximumAliases
        self.maximumNodes = maximumNodes
    }
}

/// The byte scan of `YAMLLimits` (no allocation per byte, linear time).
enum YAMLPreflight {
    static func check(_ text: String, file: String, limits: YAMLLimits) throws {
        var text = text
        try text.withUTF8 { bytes in try check(bytes, file: file, limits: limits) }
    }

    static func check(_ bytes: UnsafeBufferPointer<UInt8>, file: String, limits: YAMLLimits) throws {
        guard bytes.count <= limits.maximumBytes else {
            throw YAMLError(file: file, line: nil, key: nil,
                            "\(bytes.count) bytes; a YAML file here is at most \(limits.maximumBytes) bytes: is it the right file?")
        }
        var scan = Scan()
        var lineStart = 0, lineNumber = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 10, bytes[lineEnd] != 13 { lineEnd += 1 }
            lineNumber += 1
            scan.line(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            if scan.depth > limits.maximumDepth {
                throw YAMLError(file: file, line: lineNumber, key: nil,
                                "nested more than \(limits.maximumDepth) levels deep; ScreenLab's YAML files are a few levels deep")
            }
            if scan.aliases > limits.maximumAliases {
                throw YAMLError(file: file, line: lineNumber, key: nil,
                                "more than \(limits.maximumAliases) aliases (*name); write the values out instead")
            }
            if lineEnd < bytes.count, bytes[lineEnd] == 13, lineEnd + 1 < bytes.count, bytes[lineEnd + 1] == 10 { lineEnd += 1 }
            lineStart = lineEnd + 1
        }
    }

    /// Running state of the scan across lines.
    struct Scan {
        var indents: [Int] = []
        var flowDepth = 0
        var inDouble = false, inSingle = false
        /// Indentation of the line that opened a `|` or `>` block scalar, whose text is skipped.
        var blockScalarParent: Int?
        var depth = 0
        var aliases = 0

        mutating func line(_ line: UnsafeBufferPointer<UInt8>) {
            var indent = 0
            while indent < line.count, line[indent] == 32 { indent += 1 }
            let blank = indent == line.count || line[indent] == 35 || line[indent] == 9  // empty, comment, tab-indented
            if let parent = blockScalarParent {
                if blank || indent > parent { return }
                blockScalarParent = nil
            }
            var position = indent
            if !inDouble, !inSingle, flowDepth == 0, !blank {
                while let top = indents.last, top >= indent { indents.removeLast() }
                indents.append(indent)
                // "- - - x": each indicator opens a level.
                while position + 1 < line.count, line[position] == 45 || line[position] == 63, line[position + 1] == 32 {
                    position += 2
                    while position < line.count, line[position] == 32 { position += 1 }
                    indents.append(position)
                }
            }
            depth = max(depth, indents.count + flowDepth)
            scanContent(line, from: position, indent: indent)
        }

        private static func startsToken(_ previous: UInt8?) -> Bool {
            guard let previous else { return true }
            return previous == 32 || previous == 9 || previous == 58 || previous == 44 || previous == 91 || previous == 123 || previous == 45
        }

        private mutating func scanContent(_ line: UnsafeBufferPointer<UInt8>, from start: Int, indent: Int) {
            var i = start
            while i < line.count {
                let c = line[i], previous: UInt8? = i > 0 ? line[i - 1] : nil
                defer { i += 1 }
                if inDouble {
                    if c == 92 { i += 1 } else if c == 34 { inDouble = false }  // backslash escape, closing quote
                    continue
                }
                if inSingle {
                    if c == 39 { if i + 1 < line.count, line[i + 1] == 39 { i += 1 } else { inSingle = false } }
                    continue
                }
                let tokenStart = Scan.startsToken(previous)
                switch c {
                case 35 where previous == nil || previous == 32 || previous == 9: return  // comment
                case 34 where startsQuotedScalar(line, at: i): inDouble = true
                case 39 where startsQuotedScalar(line, at: i): inSingle = true
                // (One condition per bracket: `case 91, 123 where` would guard only the second.)
                case 91 where tokenStart || flowDepth > 0, 123 where tokenStart || flowDepth > 0:  // [ {
                    flowDepth += 1
                    depth = max(depth, indents.count + flowDepth)
                case 93 where flowDepth > 0, 125 where flowDepth > 0: flowDepth -= 1  // ] }
                case 42 where tokenStart && i + 1 < line.count && line[i + 1] > 32: aliases += 1  // *alias
                case 124 where tokenStart && flowDepth == 0 && restIsBlockHeader(line, from: i + 1),
                     62 where tokenStart && flowDepth == 0 && restIsBlockHeader(line, from: i + 1):  // | >
                    blockScalarParent = indent
                    return
                default: break
                }
            }
        }

        /// Whether a quote at `i` opens a quoted scalar for the parser too. Believing a quote that
        /// is only text (`a: it's`, `a:'x'`) would hide everything after it from the depth count,
        /// so a quote counts only at the start of a line, after `: `, `- ` or `? ` (with the
        /// space), or after `[`, `{` or `,` inside a flow collection.
        private func startsQuotedScalar(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
            var j = i - 1
            while j >= 0, line[j] == 32 || line[j] == 9 { j -= 1 }
            guard j >= 0 else { return true }
            let previous = line[j], spaced = j < i - 1
            switch previous {
            case 58, 45, 63: return spaced && (j == 0 || line[j - 1] == 32 || line[j - 1] == 9 || previous == 58)  // : - ?
            case 91, 123, 44: return flowDepth > 0 || previous != 44  // [ { ,
            default: return false
            }
        }

        /// After `|` or `>`: only chomping/indentation indicators, spaces and a comment.
        private func restIsBlockHeader(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
            var i = start
            while i < line.count {
                let c = line[i]
                if c == 35 { return true }
                guard c == 32 || c == 43 || c == 45 || (49...57).contains(c) else { return false }  // space + - 1-9
                i += 1
            }
            return true
        }
    }
}
