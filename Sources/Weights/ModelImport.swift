/// Import for a model config (kept apart from the YAML-free core so the fuzz build can leave
/// out the files that need Yams: ModelConfig.swift and this one).
extension WeightsFile {
    /// Weights from a safetensors file for the model `config` describes. A file ScreenLab
    /// exported keeps its header (which must agree with the config); any other file gets the
    /// config's header with provenance `created` only. With `expected` (the model's ordered
    /// `name, shape` list, e.g. `Module.stateShapes()`), the tensors are checked against it and
    /// put in the model's order; without it they keep the file's order.
    public static func importing(_ safetensors: SafetensorsFile, file: String, config: ModelConfig, configFile: String,
                                 expected: [(name: String, shape: [Int])]?, created: String) throws -> WeightsFile {
        let header: WeightsHeader
        if safetensors.metadata["format"] == metadataFormat {
            header = try headerFromMetadata(safetensors.metadata, file: file)
            try config.check(header, weightsFile: file, configFile: configFile)
        } else {
            header = config.header(provenance: Provenance(created: created))
        }
        var weights = WeightsFile(header: header, tensors: safetensors.tensors)
        // F16 tensors stay float16: their values are float16 values, so the file keeps them exactly.
        weights.float16Tensors = safetensors.float16Tensors
        if let expected {
            let shapes = Dictionary(expected.map { ($0.name, $0.shape) }, uniquingKeysWith: { first, _ in first })
            try weights.validate(expectedShapes: shapes, file: file)
            let state = weights.state
            weights.tensors = expected.compactMap { entry in state[entry.name].map { (entry.name, $0) } }
        }
        return weights
    }
}
