import Support

/// Export to and import from safetensors, carrying the weights header in `__metadata__`
/// (FORMAT.md, "safetensors interop").
extension WeightsFile {
    static let metadataFormat = "screenlab-weights"

    /// The tensors in file order and stored type (F32 or F16), with `format`, `format_version` and each top-level header
    /// key's JSON text in the metadata.
    public func safetensors() -> SafetensorsFile {
        let version = minimumFormatVersion
        var metadata = ["format": Self.metadataFormat, "format_version": version.description]
        if case let .object(members) = header.jsonValue(for: version) {
            for (key, value) in members { metadata[key] = value.serialized }
        }
        return SafetensorsFile(tensors: tensors, metadata: metadata, float16Tensors: float16Tensors)
    }

    static func headerFromMetadata(_ metadata: [String: String], file: String) throws -> WeightsHeader {
        let versionText = metadata["format_version"] ?? ""
        let parts = versionText.split(separator: ".").compactMap { UInt16($0) }
        guard parts.count == 2, versionText.split(separator: ".").count == 2 else {
            throw WeightsError.invalidSafetensors(file: file, reason: "__metadata__.format_version \"\(versionText)\" is not major.minor")
        }
        let version = FormatVersion(parts[0], parts[1])
        guard version.major <= FormatVersion.current.major else {
            throw WeightsError.newerMajorVersion(file: file, found: version, supported: .current)
        }
        var members: [(key: String, value: JSONValue)] = []
        for (key, text) in metadata.sorted(by: { $0.key < $1.key }) where key != "format" && key != "format_version" {
            do {
                members.append((key, try JSONParser.parse(text)))
            } catch let error as JSONSyntaxError {
                throw WeightsError.invalidHeader(file: file, key: key, reason: "__metadata__ value is not JSON (\(error.reason) at \(error.offset))")
            }
        }
        return try WeightsHeader.decode(.object(members), file: file, fileVersion: version, readerVersion: .current)
    }
}
