import Tensor

/// Uniform weight averaging of models fine-tuned from one starting point ("model soups",
/// Wortsman et al., ICML 2022): such models lie in one basin of the loss, where their mean is
/// often better than each. Batch-norm statistics are averaged like the parameters, as the soups'
/// uniform recipe does. The result is a new model: the inputs' picked thresholds do not carry
/// over (pick them again on val), and its provenance names what it averages.
extension WeightsFile {
    /// The element-wise mean of `inputs` (summed in Double, one rounding to Float per value),
    /// stored as float32. Throws, naming the file that differs, unless every input has the first's
    /// architecture, input, normalization and classes and the same tensor names and shapes, with
    /// finite values.
    public static func average(_ inputs: [(file: String, weights: WeightsFile)], created: String) throws -> WeightsFile {
        guard let (firstFile, first) = inputs.first, inputs.count >= 2 else {
            throw WeightsError.invalidContent(file: inputs.first?.file ?? "", reason: "averaging needs at least two weights files")
        }
        let shapes = Dictionary(first.tensors.map { ($0.name, $0.tensor.shape) }, uniquingKeysWith: { a, _ in a })
        for (file, other) in inputs {
            func differs(_ what: String, _ found: Any, _ expected: Any) -> WeightsError {
                .invalidContent(file: file, reason: "its \(what) (\(found)) differs from \(firstFile)'s (\(expected)): only one model's fine-tunings average")
            }
            let header = other.header
            guard header.architecture == first.header.architecture else { throw differs("architecture", header.architecture, first.header.architecture) }
            guard header.input == first.header.input else { throw differs("input", header.input, first.header.input) }
            guard header.normalization == first.header.normalization else { throw differs("normalization", header.normalization, first.header.normalization) }
            guard header.classes == first.header.classes else { throw differs("classes", header.classes, first.header.classes) }
            try other.validate(expectedShapes: shapes, file: file)
            try other.checkFinite(file: file)
        }
        let states = inputs.map(\.weights.state)
        let scale = 1 / Double(inputs.count)
        let tensors = try first.tensors.map { name, tensor -> (name: String, tensor: Tensor) in
            var sum = [Double](repeating: 0, count: tensor.count)
            for state in states {
                let values = state[name]!.values
                for i in values.indices { sum[i] += Double(values[i]) }
            }
            return (name, try Tensor(shape: tensor.shape, values: sum.map { Float($0 * scale) }))
        }
        var header = first.header
        header.thresholds = nil
        header.training = nil
        let sources = inputs.map { $0.weights.header.provenance.runID ?? $0.file }
        let same = { (field: (Provenance) -> String?) -> String? in
            let values = Set(inputs.map { field($0.weights.header.provenance) })
            return values.count == 1 ? values.first! : nil
        }
        header.provenance = Provenance(experiment: "average of \(sources.joined(separator: ", "))", dataset: same(\.dataset),
                                       trainSplit: same(\.trainSplit), valSplit: same(\.valSplit), testSplit: same(\.testSplit),
                                       gitCommit: same(\.gitCommit), created: created)
        return WeightsFile(header: header, tensors: tensors)
    }
}
