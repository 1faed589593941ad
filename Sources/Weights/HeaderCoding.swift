import Support

/// The header as JSON (FORMAT.md, "Header"): encoding, and strict decoding that names the
/// offending key. Keys unknown to this reader are an error in files of a version it knows
/// (a typo or a corrupt writer) and are skipped in files of a newer minor version.
extension WeightsHeader {
    func jsonValue(for version: FormatVersion) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("architecture", .object([("name", .string(architecture.name)),
                                      ("options", .object(architecture.options.sorted { $0.key < $1.key }
                                          .map { ($0.key, .string($0.value)) }))])),
            ("input", .object([("width", .integer(Int64(input.width))), ("height", .integer(Int64(input.height))),
                               ("channels", .integer(Int64(input.channels)))])),
            ("normalization", .object([("mean", .array(normalization.mean.map(shortestJSON))),
                                       ("std", .array(normalization.std.map(shortestJSON)))])),
            ("classes", .array(classes.map { .string($0) })),
        ]
        if let thresholds {
            members.append(("thresholds", .array(thresholds.map { threshold in
                .object([("class", .string(threshold.className)), ("confidence", .number(threshold.confidence)),
                         ("precision", .number(threshold.precision)), ("recall", .number(threshold.recall)),
                         ("f1", .number(threshold.f1)), ("split", .string(threshold.split))])
            })))
        }
        members.append(("provenance", provenance.jsonValue))
        if let training, version >= .v1_1 {
            var fields: [(key: String, value: JSONValue)] = [("seed", .string(String(training.seed))),
                                                             ("epochs", .integer(Int64(training.epochs)))]
            if let config = training.config { fields.append(("config", .string(config))) }
            members.append(("training", .object(fields)))
        }
        return .object(members)
    }

    /// The top-level keys and the version that introduced each (FORMAT.md, "Header").
    static let topLevelKeys: [(key: String, since: FormatVersion)] = [
        ("architecture", .v1_0), ("input", .v1_0), ("normalization", .v1_0), ("classes", .v1_0),
        ("thresholds", .v1_0), ("provenance", .v1_0), ("training", .v1_1),
    ]

    /// Decodes a header written in format `fileVersion` as a reader of `readerVersion`.
    static func decode(_ json: JSONValue, file: String, fileVersion: FormatVersion,
                       readerVersion: FormatVersion) throws -> WeightsHeader {
        let context = HeaderContext(file: file, skipsUnknownKeys: fileVersion > readerVersion)
        let root = try context.object(json, key: "header")
        // A field exists in the versions from the one that introduced it, as far as both the
        // file and this reader go: a 1.0 file carrying `training` is as wrong as a typo.
        let version = min(fileVersion, readerVersion)
        if !context.skipsUnknownKeys,
           let late = topLevelKeys.first(where: { key in key.since > fileVersion && root.members.contains { $0.key == key.key } }) {
            throw WeightsError.invalidHeader(file: file, key: late.key,
                                             reason: "was introduced in format \(late.since) but the file says it is format "
                                                 + "\(fileVersion); the writer must label such a file \(late.since) or later")
        }
        try root.checkKeys(Set(topLevelKeys.filter { $0.since <= version }.map(\.key)))

        let architectureObject = try context.object(try root.require("architecture"), key: "architecture")
        try architectureObject.checkKeys(["name", "options"])
        var options: [String: String] = [:]
        if let optionsValue = architectureObject.optional("options") {
            for (key, value) in try context.object(optionsValue, key: "architecture.options").members {
                options[key] = try context.string(value, key: "architecture.options.\(key)")
            }
        }
        let architecture = ModelArchitecture(name: try architectureObject.string("name"), options: options)

        let inputObject = try context.object(try root.require("input"), key: "input")
        try inputObject.checkKeys(["width", "height", "channels"])
        let input = InputSpec(width: try inputObject.int("width"), height: try inputObject.int("height"),
                              channels: try inputObject.int("channels"))

        let normalizationObject = try context.object(try root.require("normalization"), key: "normalization")
        try normalizationObject.checkKeys(["mean", "std"])
        let normalization = InputNormalization(mean: try normalizationObject.floats("mean"),
                                               std: try normalizationObject.floats("std"))

        let classes = try context.array(try root.require("classes"), key: "classes").enumerated().map {
            try context.string($0.element, key: "classes[\($0.offset)]")
        }
        let thresholds = try root.optional("thresholds").map { try decodeThresholds($0, context: context) }
        let provenance = try Provenance.decode(try root.require("provenance"), context: context)
        var training: TrainingInfo?
        if version >= .v1_1, let value = root.optional("training") {
            let object = try context.object(value, key: "training")
            try object.checkKeys(["seed", "epochs", "config"])
            guard let seed = UInt64(try object.string("seed")) else {
                throw WeightsError.invalidHeader(file: file, key: "training.seed", reason: "expected an unsigned integer in a string")
            }
            training = TrainingInfo(seed: seed, epochs: try object.int("epochs"), config: try object.optionalString("config"))
        }
        let header = WeightsHeader(architecture: architecture, input: input, normalization: normalization, classes: classes,
                                   thresholds: thresholds, provenance: provenance, training: training)
        try header.validate(file: file)
        return header
    }

    private static func decodeThresholds(_ value: JSONValue, context: HeaderContext) throws -> [ClassThreshold] {
        try context.array(value, key: "thresholds").enumerated().map { index, element in
            let object = try context.object(element, key: "thresholds[\(index)]")
            try object.checkKeys(["class", "confidence", "precision", "recall", "f1", "split"])
            return ClassThreshold(className: try object.string("class"), confidence: try object.double("confidence"),
                                  precision: try object.double("precision"), recall: try object.double("recall"),
                                  f1: try object.double("f1"), split: try object.string("split"))
        }
    }

    /// Checks the meaning of the fields (the writer and every reader run this).
    func validate(file: String) throws {
        func fail(_ key: String, _ reason: String) -> WeightsError { .invalidHeader(file: file, key: key, reason: reason) }
        guard !architecture.name.isEmpty else { throw fail("architecture.name", "must not be empty") }
        guard (1...65536).contains(input.width), (1...65536).contains(input.height) else {
            throw fail("input", "size \(input.width)x\(input.height) must be between 1 and 65536 pixels per side")
        }
        guard (1...64).contains(input.channels) else { throw fail("input.channels", "\(input.channels) is not in 1...64") }
        for (key, values) in [("normalization.mean", normalization.mean), ("normalization.std", normalization.std)] {
            guard values.count == input.channels else {
                throw fail(key, "has \(values.count) values but the input has \(input.channels) channels")
            }
            guard values.allSatisfy(\.isFinite) else { throw fail(key, "values must be finite") }
        }
        guard normalization.std.allSatisfy({ $0 > 0 }) else { throw fail("normalization.std", "values must be positive") }
        guard !classes.isEmpty else { throw fail("classes", "the class list is empty") }
        var seen = Set<String>()
        for (index, name) in classes.enumerated() {
            guard !name.isEmpty else { throw fail("classes[\(index)]", "class name is empty") }
            guard seen.insert(name).inserted else { throw fail("classes[\(index)]", "class \"\(name)\" is listed twice") }
        }
        try validateThresholds(file: file)
        try provenance.validate(file: file)
        if let training, training.epochs < 0 { throw fail("training.epochs", "must not be negative") }
    }

    private func validateThresholds(file: String) throws {
        guard let thresholds else { return }
        let classIndex = Dictionary(classes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var previous: (name: String, index: Int)?
        for (index, threshold) in thresholds.enumerated() {
            let key = "thresholds[\(index)]"
            guard let position = classIndex[threshold.className] else {
                throw WeightsError.invalidHeader(file: file, key: key + ".class",
                                                 reason: "\"\(threshold.className)\" is not one of the model's classes")
            }
            guard seen.insert(threshold.className).inserted else {
                throw WeightsError.invalidHeader(file: file, key: key + ".class", reason: "\"\(threshold.className)\" has two thresholds")
            }
            if let previous {
                // Class order makes the file deterministic and lets a reader line thresholds up with outputs.
                guard position > previous.index else {
                    throw WeightsError.invalidHeader(file: file, key: key + ".class",
                                                     reason: "\"\(threshold.className)\" (class \(position)) comes after \"\(previous.name)\" "
                                                         + "(class \(previous.index)); thresholds must be in class order")
                }
            }
            previous = (threshold.className, position)
            for (field, value) in [("confidence", threshold.confidence), ("precision", threshold.precision),
                                   ("recall", threshold.recall), ("f1", threshold.f1)] where !(0...1).contains(value) {
                throw WeightsError.invalidHeader(file: file, key: key + "." + field, reason: "\(value) is not in [0, 1]")
            }
            guard !threshold.split.isEmpty else {
                throw WeightsError.invalidHeader(file: file, key: key + ".split", reason: "must name the split it was picked on")
            }
        }
    }
}

/// A Float as the shortest decimal that reads back as the same Float ("0.485", not the
/// Double expansion "0.48500001430511475").
private func shortestJSON(_ value: Float) -> JSONValue {
    .number(Double(value.description) ?? Double(value))
}

extension Provenance {
    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        let strings: [(String, String?)] = [("run_id", runID), ("experiment", experiment), ("dataset", dataset),
                                            ("train_split", trainSplit), ("val_split", valSplit), ("test_split", testSplit),
                                            ("git_commit", gitCommit), ("created", created)]
        for (key, value) in strings { if let value { members.append((key, .string(value))) } }
        if let valMAP50 { members.append(("val_map50", .number(valMAP50))) }
        if let testMAP50 { members.append(("test_map50", .number(testMAP50))) }
        return .object(members)
    }

    static func decode(_ value: JSONValue, context: HeaderContext) throws -> Provenance {
        let object = try context.object(value, key: "provenance")
        try object.checkKeys(["run_id", "experiment", "dataset", "train_split", "val_split", "test_split",
                              "git_commit", "created", "val_map50", "test_map50"])
        return Provenance(runID: try object.optionalString("run_id"), experiment: try object.optionalString("experiment"),
                          dataset: try object.optionalString("dataset"), trainSplit: try object.optionalString("train_split"),
                          valSplit: try object.optionalString("val_split"), testSplit: try object.optionalString("test_split"),
                          gitCommit: try object.optionalString("git_commit"), created: try object.string("created"),
                          valMAP50: try object.optionalDouble("val_map50"), testMAP50: try object.optionalDouble("test_map50"))
    }

    func validate(file: String) throws {
        guard !created.isEmpty else { throw WeightsError.invalidHeader(file: file, key: "provenance.created", reason: "must not be empty") }
        for (key, value) in [("provenance.val_map50", valMAP50), ("provenance.test_map50", testMAP50)] {
            if let value, !(0...1).contains(value) {
                throw WeightsError.invalidHeader(file: file, key: key, reason: "\(value) is not in [0, 1]")
            }
        }
    }
}

/// Typed access to JSON with errors that name the file and the dotted key.
struct HeaderContext {
    let file: String
    let skipsUnknownKeys: Bool

    func fail(_ key: String, _ reason: String) -> WeightsError { .invalidHeader(file: file, key: key, reason: reason) }

    func object(_ value: JSONValue, key: String) throws -> HeaderObject {
        guard case let .object(members) = value else { throw fail(key, "expected an object, found \(value.typeName)") }
        return HeaderObject(context: self, path: key == "header" ? "" : key + ".", members: members)
    }

    func array(_ value: JSONValue, key: String) throws -> [JSONValue] {
        guard case let .array(elements) = value else { throw fail(key, "expected an array, found \(value.typeName)") }
        return elements
    }

    func string(_ value: JSONValue, key: String) throws -> String {
        guard case let .string(text) = value else { throw fail(key, "expected a string, found \(value.typeName)") }
        return text
    }
}

struct HeaderObject {
    let context: HeaderContext
    let path: String
    let members: [(key: String, value: JSONValue)]

    func checkKeys(_ known: Set<String>) throws {
        guard !context.skipsUnknownKeys else { return }
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw context.fail(path + unknown.key, "unknown key (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// The value of `key`; a JSON null counts as absent.
    func optional(_ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
        return value
    }

    func require(_ key: String) throws -> JSONValue {
        guard let value = optional(key) else { throw context.fail(path + key, "missing") }
        return value
    }

    func string(_ key: String) throws -> String { try context.string(try require(key), key: path + key) }

    func optionalString(_ key: String) throws -> String? {
        try optional(key).map { try context.string($0, key: path + key) }
    }

    func double(_ key: String) throws -> Double {
        let value = try require(key)
        guard let number = value.doubleValue else { throw context.fail(path + key, "expected a number, found \(value.typeName)") }
        return number
    }

    func optionalDouble(_ key: String) throws -> Double? {
        guard optional(key) != nil else { return nil }
        return try double(key)
    }

    func int(_ key: String) throws -> Int {
        let value = try require(key)
        guard case let .integer(number) = value, let result = Int(exactly: number) else {
            throw context.fail(path + key, "expected an integer, found \(value.typeName)")
        }
        return result
    }

    func floats(_ key: String) throws -> [Float] {
        try context.array(try require(key), key: path + key).enumerated().map { index, element in
            guard let number = element.doubleValue else {
                throw context.fail("\(path)\(key)[\(index)]", "expected a number, found \(element.typeName)")
            }
            return Float(number)
        }
    }
}
