import Data
import Foundation
import Support

extension AugmentPreset {
    /// Reads a preset file; unknown keys, wrong types and out-of-range values are errors
    /// naming the file, line and key (a typo must never silently fall back to a default).
    public static func load(from url: URL) throws -> AugmentPreset {
        try parse(YAMLDocument.load(url, options: .nullsRefused), file: url.path)
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
            throw PresetError(file: reference, line: nil, key: nil, "no preset of that name: no Configs/augment/*.yaml "
                + "found from \(folder.path); run inside the ScreenLab checkout or give a path to a .yaml file")
        }
        throw PresetError(file: folderOfPresets.appendingPathComponent("\(reference).yaml").path, line: nil, key: nil,
                          "no preset named '\(reference)'; available: \(available.joined(separator: ", ")) (or a path to a .yaml file)")
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
        try parse(YAMLDocument.parse(yaml, file: file, options: .nullsRefused), file: file)
    }

    /// Through Support's YAML entry point (size, depth and alias limits before parsing) and its
    /// strict reader: a section left out keeps its defaults; a null is refused, not a default.
    static func parse(_ document: YAMLValue?, file: String) throws -> AugmentPreset {
        var preset = AugmentPreset()
        guard let document else { return preset }
        let root = try document.mapping()
        var s = try root.mapping("mosaic")
        preset.mosaic.probability = try s.probability("probability") ?? 0
        preset.mosaic.center = try s.range("center", within: 0...2) ?? preset.mosaic.center
        preset.mosaic.scale = try s.range("scale", within: 0.05...4) ?? preset.mosaic.scale
        try s.finish()
        s = try root.mapping("mixup")
        preset.mixUp.probability = try s.probability("probability") ?? 0
        preset.mixUp.alpha = try s.optionalDouble("alpha", range: 0.01...1000) ?? preset.mixUp.alpha
        preset.mixUp.ratio = try s.optionalDouble("ratio", range: 0...1)
        try s.finish()
        s = try root.mapping("copyPaste")
        preset.copyPaste.probability = try s.probability("probability") ?? 0
        preset.copyPaste.maxElements = try s.int("maxElements", default: preset.copyPaste.maxElements, range: 0...100)
        preset.copyPaste.maxOverlap = try s.double("maxOverlap", default: preset.copyPaste.maxOverlap, range: 0...1)
        preset.copyPaste.rarityPower = try s.double("rarityPower", default: preset.copyPaste.rarityPower, range: 0...4)
        preset.copyPaste.placementAttempts = try s.int("placementAttempts", default: preset.copyPaste.placementAttempts, range: 1...1000)
        preset.copyPaste.backgroundClasses = try s.names("backgroundClasses") ?? preset.copyPaste.backgroundClasses
        try s.finish()
        s = try root.mapping("scaleTranslate")
        preset.scaleTranslate.probability = try s.probability("probability") ?? 0
        preset.scaleTranslate.scale = try s.range("scale", within: 0.05...10) ?? preset.scaleTranslate.scale
        preset.scaleTranslate.translate = try s.double("translate", default: 0, range: 0...1)
        try s.finish()
        s = try root.mapping("hsv")
        preset.hsv.probability = try s.probability("probability") ?? 0
        preset.hsv.hue = try s.double("hue", default: 0, range: 0...0.5)
        preset.hsv.saturation = try s.double("saturation", default: 0, range: 0...1)
        preset.hsv.value = try s.double("value", default: 0, range: 0...1)
        try s.finish()
        s = try root.mapping("grayscale")
        preset.grayscaleProbability = try s.probability("probability") ?? 0
        try s.finish()
        s = try root.mapping("flip")
        preset.flipProbability = try s.probability("probability") ?? 0
        try s.finish()
        s = try root.mapping("boxes")
        preset.boxes.minVisibleFraction = try s.double("minVisibleFraction", default: preset.boxes.minVisibleFraction, range: 0...1)
        preset.boxes.minSide = try s.double("minSide", default: preset.boxes.minSide, range: 0...1000)
        try s.finish()
        s = try root.mapping("sampling")
        preset.sampling.repeatThreshold = try s.double("repeatThreshold", default: 0, range: 0...1)
        try s.finish()
        try root.finish()
        return preset
    }
}

private extension YAMLMapping {
    func probability(_ key: String) throws -> Double? { try optionalDouble(key, range: 0...1) }
}
