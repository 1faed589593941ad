/// JSON text for values and for the pieces of hand-assembled files (COCO results).
public enum JSONWriter {
    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var output = ""
        writeString(text, to: &output)
        return output
    }

    /// The shortest text that reads back to the same Double (`0.1`, `1e-05`); whole numbers
    /// below 10^15 without a fraction (`512`). Finite values only: JSON has no NaN.
    public static func number(_ value: Double) -> String {
        precondition(value.isFinite, "JSON has no NaN or infinity")
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case let .bool(value): output += value ? "true" : "false"
        case let .integer(value): output += String(value)
        case let .number(value):
            if value.isFinite { output += number(value) } else { output += value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity" }
        case let .string(value): writeString(value, to: &output)
        case let .array(elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case let .object(members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension JSONValue {
    /// Compact JSON text; object members in their stored order, so output is deterministic.
    /// Non-finite numbers (only from a parse that allowed them) come out as Python writes them.
    public var serialized: String {
        var output = ""
        JSONWriter.write(self, to: &output)
        return output
    }
}
