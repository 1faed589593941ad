import Kernels
import Tensor

/// Finds NaN/Inf early, naming where it appeared, so a diverging run stops with a reason
/// instead of silently training on garbage.
public enum NonFiniteCheck {
    public static func check(_ tensor: Tensor, what: String) throws {
        if let index = Vector.firstNonFinite(tensor.pointer, count: tensor.count) {
            throw TensorError.nonFinite(what: what, detail: "element \(index) of shape \(tensor.shape) is \(tensor[flat: index])")
        }
    }

    /// Checks each named parameter's gradient; the error names the first bad parameter.
    public static func checkGradients(_ parameters: [(name: String, parameter: Parameter)]) throws {
        for (name, parameter) in parameters {
            if let gradient = parameter.gradient { try check(gradient, what: "gradient of \(name)") }
        }
    }
}
