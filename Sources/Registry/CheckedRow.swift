import Foundation
import GRDB

/// One registry row read value by value, each checked for its type and range where it is read.
/// docs/registry.md invites users to open the registry with `sqlite3`, so a row may hold text in a
/// number column (`pid = 'abc'`), a pid no process can have, or 1e308 seconds; GRDB's typed
/// subscripts stop the process on a type they cannot convert. Here a bad value reads as nil and
/// is reported — by table, row and column — in `problems`, so one bad row never hides the others.
struct CheckedRow {
    let row: Row
    let table: String
    /// What names the row in a problem ("run 2026…-123", "epoch 3 of run …").
    let label: String
    private(set) var problems: [String] = []

    init(_ row: Row, table: String, label: String) {
        self.row = row; self.table = table; self.label = label
    }

    private mutating func report(_ column: String, _ value: DatabaseValue, _ expected: String) {
        problems.append("\(table) \(label): column \(column) holds \(value.description), not \(expected); read as empty")
    }

    mutating func text(_ column: String) -> String? {
        let value: DatabaseValue = row[column] ?? .null
        switch value.storage {
        case .null: return nil
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .blob(let data):
            if let text = String(data: data, encoding: .utf8) { return text }
            report(column, value, "text")
            return nil
        }
    }

    mutating func int(_ column: String, in range: ClosedRange<Int>) -> Int? {
        let value: DatabaseValue = row[column] ?? .null
        let number: Int?
        switch value.storage {
        case .null: return nil
        case .int64(let n): number = Int(exactly: n)
        case .double(let d): number = d.isFinite && d.rounded() == d && abs(d) < 9e18 ? Int(d) : nil
        default: number = nil
        }
        guard let number, range.contains(number) else {
            report(column, value, "a whole number in \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return number
    }

    mutating func double(_ column: String, in range: ClosedRange<Double>) -> Double? {
        let value: DatabaseValue = row[column] ?? .null
        let number: Double?
        switch value.storage {
        case .null: return nil
        case .int64(let n): number = Double(n)
        case .double(let d): number = d
        default: number = nil
        }
        guard let number, number.isFinite, range.contains(number) else {
            report(column, value, "a number in \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return number
    }

    /// A share: mAP, AP, precision, recall, F1, a confidence.
    mutating func fraction(_ column: String) -> Double? { double(column, in: 0...1) }
}

/// Bounds of the registry's numbers: wide enough for any real run, small enough for every use.
enum RegistryRanges {
    /// A process id as `kill` takes it.
    static let pid = 1...Int(Int32.max)
    static let epochs = 0...1_000_000
    static let count = 0...Int(Int32.max)
    static let seconds = 0.0...1e9
    static let imagesPerSecond = 0.0...1e7
    static let learningRate = -1e3...1e3
    static let loss = -1e12...1e12
}
