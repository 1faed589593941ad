import Kernels
import Tensor

// Broadcasting arithmetic. Backward sums each gradient back to its operand's shape.
extension Variable {
    public static func + (a: Variable, b: Variable) throws -> Variable {
        let out = try a.tape.timed(.add) { try Tensor.elementwise(.add, a.value, b.value, opName: "add") }
        let (sa, sb) = (a.shape, b.shape)
        return try sameTape(a, b).record(.add, inputs: [a, b], output: out) { g, needed in
            [needed[0] ? g.summed(toShape: sa) : nil, needed[1] ? g.summed(toShape: sb) : nil]
        }
    }

    public static func - (a: Variable, b: Variable) throws -> Variable {
        let out = try a.tape.timed(.subtract) { try Tensor.elementwise(.subtract, a.value, b.value, opName: "subtract") }
        let (sa, sb) = (a.shape, b.shape)
        return try sameTape(a, b).record(.subtract, inputs: [a, b], output: out) { g, needed in
            [needed[0] ? g.summed(toShape: sa) : nil, needed[1] ? g.scaled(by: -1).summed(toShape: sb) : nil]
        }
    }

    public static func * (a: Variable, b: Variable) throws -> Variable {
        let out = try a.tape.timed(.multiply) { try Tensor.elementwise(.multiply, a.value, b.value, opName: "multiply") }
        let (va, vb) = (a.value, b.value)
        return try sameTape(a, b).record(.multiply, inputs: [a, b], output: out) { g, needed in
            [needed[0] ? try Tensor.elementwise(.multiply, g, vb, opName: "multiply").summed(toShape: va.shape) : nil,
             needed[1] ? try Tensor.elementwise(.multiply, g, va, opName: "multiply").summed(toShape: vb.shape) : nil]
        }
    }

    public static func / (a: Variable, b: Variable) throws -> Variable {
        let out = try a.tape.timed(.divide) { try Tensor.elementwise(.divide, a.value, b.value, opName: "divide") }
        let (va, vb) = (a.value, b.value)
        return try sameTape(a, b).record(.divide, inputs: [a, b], output: out) { g, needed in
            let ga = try Tensor.elementwise(.divide, g, vb, opName: "divide")
            // d(a/b)/db = −a/b² = −(g/b)·out
            let gb = needed[1] ? try Tensor.elementwise(.multiply, ga, out, opName: "divide").scaled(by: -1).summed(toShape: vb.shape) : nil
            return [needed[0] ? ga.summed(toShape: va.shape) : nil, gb]
        }
    }

    public static prefix func - (a: Variable) -> Variable {
        let out = a.tape.timed(.negate) { a.value.scaled(by: -1) }
        return a.tape.record(.negate, inputs: [a], output: out) { g, _ in [g.scaled(by: -1)] }
    }

    /// Multiplies by a constant.
    public func scaled(by factor: Float) -> Variable {
        let out = tape.timed(.multiply) { value.scaled(by: factor) }
        return tape.record(.multiply, inputs: [self], output: out) { g, _ in [g.scaled(by: factor)] }
    }

    /// Adds a constant.
    public func adding(_ constant: Float) throws -> Variable {
        try self + tape.constant(Tensor.scalar(constant))
    }
}

func sameTape(_ variables: Variable...) throws -> Tape {
    let tape = variables[0].tape
    guard variables.allSatisfy({ $0.tape === tape }) else {
        throw TensorError.invalidArgument(op: "graph", reason: "operands were recorded on different tapes")
    }
    return tape
}
