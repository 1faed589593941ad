import Tensor

/// Weights used by a model hold finite numbers only: a NaN or infinity in one tensor (a training
/// run that diverged) makes every detection NaN, which is better refused at load, naming the
/// tensor, than found in a report. The file format itself stays bit-exact for any float (its
/// tests round-trip infinities and NaN payloads); the check is where weights are used:
/// `WeightsFile.load`, and every `screenlab weights` command.
enum FiniteValues {
    static func check(_ tensor: Tensor, name: String, file: String) throws {
        let firstBad: (Int, Float)? = tensor.withUnsafeBufferPointer { values in
            for (index, value) in values.enumerated() where !value.isFinite { return (index, value) }
            return nil
        }
        if let (index, value) = firstBad { throw WeightsError.nonFiniteTensor(file: file, tensor: name, index: index, value: value) }
    }
}

extension WeightsFile {
    /// Refuses NaN and infinite values, naming the tensor and the element.
    public func checkFinite(file: String) throws {
        for (name, tensor) in tensors { try FiniteValues.check(tensor, name: name, file: file) }
    }
}
