import Data
import Foundation
import Support
import Yams

extension AugmentPreset {
    /// Reads a preset file; unknown keys, wrong types and out-of-range values are errors
    /// naming the file, line and key (a typo must never silently fall back to a default).
    public static func load(from url: URL) throws -> AugmentPreset {
        do { return try parse(try YAMLDocument.load(url), file: url.path) } catch let error as YAMLError { throw PresetError(error) }
    }

    /// Resolves `NAME` to `Configs/augment/NAME.yaml` under `root`, or takes a path to a .yaml file as is.
    public static func url(forName name: String, root: URL) -> URL {
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") {
            return URL(fileURLWithPath: name, relativeTo: root).standardizedFileURL
        }
        return root.appendingPathComponent("Configs/augment/\(name).yaml")
    }

    /// The preset file that `--preset NAME_OR_PATH` means. A path (ending in .yaml or .yml, or
    /// holding a /) is taken relative to `folder`. A bare name is `Configs/augment/NAME.yaml` in
    /// the repository holding `folder` — the root that dataset configs resolve their paths
    /// against — or else in the first of `fallbackRepositories` that has it (the executable's
    /// checkout), so `--preset default` works from any folder. An unknown name is an error that
    /// lists the presets there are.
    public static func locate(_ reference: String, from folder: URL, fallbackRepositories: [URL] = []) throws -> URL {
        if reference.hasSuffix(".yaml") || reference.hasSuffix(".yml") || reference.contains("/") {
            return url(forName: reference, root: folder)
        }
        let roots = ([folder] + fallbackRepositories).map { DatasetConfig.repoRoot(containing: $0.appendingPathComponent("Package.swift")) }
        for root in roots {
            let candidate = url(forName: reference, root: root)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        guard let (folderOfPresets, available) = presets(in: roots) else {
            throw PresetError(file: reference, line: nil, message: "no preset of that name: no Configs/augment/*.yaml "
                + "found from \(folder.path); run inside the ScreenLab checkout or give a path to a .yaml file")
        }
        throw PresetError(file: folderOfPresets.appendingPathComponent("\(reference).yaml").path, line: nil,
                          message: "no preset named '\(reference)'; available: \(available.joined(separator: ", ")) (or a path to a .yaml file)")
    }

    /// The first `Configs/augment/` among `roots` that holds presets, with their names.
    static func presets(in roots: [URL]) -> (folder: URL, names: [String])? {
        for root in roots {
            let folder = root.appendingPathComponent("Configs/augment")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let names = files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(".yaml".count)) }.sorted()
            if !names.isEmpty { return (folder, names) }
        }
        return nil
    }

    public static func parse(yaml: String, file: String) throws -> AugmentPreset {
        do { return try parse(try YAMLDocument.parse(yaml, file: file), file: file) } catch let error as YAMLError { throw PresetError(error) }
    }

    /// Through Support's YAML entry point (size, depth and alias limits before parsing).
    static func parse(_ document: YAMLValue?, file: String) throws -> AugmentPreset {
        var preset = AugmentPreset()
        guard let node = document?.node else { return preset }
        let root = try PresetSection(node, name: "preset", file: file)
        if let s = try root.section("mosaic") {
            preset.mosaic.probability = try s.probability("probability") ?? 0
            preset.mosaic.center = try s.range("center", within: 0...2) ?? preset.mosaic.center
            preset.mosaic.scale = try s.range("scale", within: 0.05...4) ?? preset.mosaic.scale
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("mixup") {
            preset.mixUp.probability = try s.probability("probability") ?? 0
            preset.mixUp.alpha = try s.number("alpha", within: 0.01...1000) ?? preset.mixUp.alpha
            preset.mixUp.ratio = try s.number("ratio", within: 0...1)
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("copyPaste") {
            preset.copyPaste.probability = try s.probability("probability") ?? 0
            preset.copyPaste.maxElements = try s.integer("maxElements", within: 0...100) ?? preset.copyPaste.maxElements
            preset.copyPaste.maxOverlap = try s.number("maxOverlap", within: 0...1) ?? preset.copyPaste.maxOverlap
            preset.copyPaste.rarityPower = try s.number("rarityPower", within: 0...4) ?? preset.copyPaste.rarityPower
            preset.copyPaste.placementAttempts = try s.integer("placementAttempts", within: 1...1000)
                ?? preset.copyPaste.placementAttempts
            preset.copyPaste.backgroundClasses = try s.names("backgroundClasses") ?? preset.copyPaste.backgroundClasses
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("scaleTranslate") {
            preset.scaleTranslate.probability = try s.probability("probability") ?? 0
            preset.scaleTranslate.scale = try s.range("scale", within: 0.05...10) ?? preset.scaleTranslate.scale
            preset.scaleTranslate.translate = try s.number("translate", within: 0...1) ?? 0
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("hsv") {
            preset.hsv.probability = try s.probability("probability") ?? 0
            preset.hsv.hue = try s.number("hue", within: 0...0.5) ?? 0
            preset.hsv.saturation = try s.number("saturation", within: 0...1) ?? 0
            preset.hsv.value = try s.number("value", within: 0...1) ?? 0
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("grayscale") {
            preset.grayscaleProbability = try s.probability("probability") ?? 0
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("flip") {
            preset.flipProbability = try s.probability("probability") ?? 0
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("boxes") {
            preset.boxes.minVisibleFraction = try s.number("minVisibleFraction", within: 0...1) ?? preset.boxes.minVisibleFraction
            preset.boxes.minSide = try s.number("minSide", within: 0...1000) ?? preset.boxes.minSide
            try s.rejectUnknownKeys()
        }
        if let s = try root.section("sampling") {
            preset.sampling.repeatThreshold = try s.number("repeatThreshold", within: 0...1) ?? 0
            try s.rejectUnknownKeys()
        }
        try root.rejectUnknownKeys()
        return preset
    }
}

/// One YAML mapping whose keys are checked off as they are read, so that the keys left
/// over at the end are exactly the unknown ones.
final class PresetSection {
    private let entries: [(key: String, value: Node, line: Int?)]
    private var used: Set<String> = []
    /// Every key asked for, present or not: the section's schema, listed in errors.
    private var asked: [String] = []
    private let name: String
    private let file: String
    private let line: Int?

    init(_ node: Node, name: String, file: String) throws {
        self.name = name
        self.file = file
        line = node.mark?.line
        guard let mapping = node.mapping else {
            throw PresetError(file: file, line: node.mark?.line, message: "'\(name)' must be a mapping of keys to values")
        }
        var seen: Set<String> = []
        var entries: [(key: String, value: Node, line: Int?)] = []
        for (key, value) in mapping {
            let keyName = key.string ?? "?"
            guard seen.insert(keyName).inserted else {
                throw PresetError(file: file, line: key.mark?.line, message: "duplicate key '\(keyName)' in '\(name)'")
            }
            entries.append((keyName, value, key.mark?.line))
        }
        self.entries = entries
    }

    private func value(_ key: String) -> (node: Node, line: Int?)? {
        if !asked.contains(key) { asked.append(key) }
        guard let entry = entries.first(where: { $0.key == key }) else { return nil }
        used.insert(key)
        return (entry.value, entry.line)
    }

    private func fail(_ line: Int?, _ message: String) -> PresetError {
        PresetError(file: file, line: line ?? self.line, message: message)
    }

    func section(_ key: String) throws -> PresetSection? {
        guard let (node, _) = value(key) else { return nil }
        return try PresetSection(node, name: key, file: file)
    }

    func number(_ key: String, within bounds: ClosedRange<Double>) throws -> Double? {
        guard let (node, line) = value(key) else { return nil }
        guard let number = YAMLValue.number(node), number.isFinite else {
            throw fail(line, "'\(name).\(key)' must be a number, found '\(node.string ?? "a list or mapping")'")
        }
        guard bounds.contains(number) else {
            throw fail(line, "'\(name).\(key)' is \(number); it must lie in \(bounds.lowerBound)...\(bounds.upperBound)")
        }
        return number
    }

    func probability(_ key: String) throws -> Double? { try number(key, within: 0...1) }

    func integer(_ key: String, within bounds: ClosedRange<Int>) throws -> Int? {
        guard let (node, line) = value(key) else { return nil }
        guard let number = YAMLValue.integer(node) else {
            throw fail(line, "'\(name).\(key)' must be a whole number, found '\(node.string ?? "a list or mapping")'")
        }
        guard bounds.contains(number) else {
            throw fail(line, "'\(name).\(key)' is \(number); it must lie in \(bounds.lowerBound)...\(bounds.upperBound)")
        }
        return number
    }

    /// A list of names, e.g. `[Container, Dialog]` (`[]` for none).
    func names(_ key: String) throws -> [String]? {
        guard let (node, line) = value(key) else { return nil }
        guard let sequence = node.sequence else {
            throw fail(line, "'\(name).\(key)' must be a list of class names, e.g. [Container, Dialog]")
        }
        return try sequence.map { item in
            guard item.scalar != nil, let text = item.string, !text.isEmpty else {
                throw fail(item.mark?.line ?? line, "'\(name).\(key)' must hold class names, found a list or mapping")
            }
            return text
        }
    }

    /// `[low, high]` or a single number (a fixed value).
    func range(_ key: String, within bounds: ClosedRange<Double>) throws -> ClosedRange<Double>? {
        guard let (node, line) = value(key) else { return nil }
        let values: [Double?]
        if let sequence = node.sequence {
            values = sequence.map { YAMLValue.number($0) }
        } else {
            values = [YAMLValue.number(node)]
        }
        guard (1...2).contains(values.count), let low = values.first!, let high = values.last!, low.isFinite, high.isFinite else {
            throw fail(line, "'\(name).\(key)' must be a number or a list [low, high] of two numbers")
        }
        guard low <= high else { throw fail(line, "'\(name).\(key)': low \(low) is above high \(high)") }
        guard bounds.contains(low), bounds.contains(high) else {
            throw fail(line, "'\(name).\(key)' is [\(low), \(high)]; both ends must lie in \(bounds.lowerBound)...\(bounds.upperBound)")
        }
        return low...high
    }

    func rejectUnknownKeys() throws {
        if let unknown = entries.first(where: { !used.contains($0.key) }) {
            throw fail(unknown.line, "unknown key '\(unknown.key)' in '\(name)'; known keys: \(asked.joined(separator: ", "))")
        }
    }
}
