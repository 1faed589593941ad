/// A dense, contiguous float32 array with a shape (row-major; images are NCHW).
///
/// `Tensor` is a value: assigning it shares storage, and the first write through
/// `withUnsafeMutableBufferPointer` copies the storage if anyone else holds it.
public struct Tensor {
    public private(set) var shape: [Int]
    public private(set) var storage: TensorStorage

    public var count: Int { storage.count }
    public var rank: Int { shape.count }

    /// Zero-filled tensor. Throws when a dimension is negative.
    public init(zeros shape: [Int]) throws {
        try self.init(repeating: 0, shape: shape, op: "Tensor(zeros:)")
    }

    /// Every element `value`. Throws when a dimension is negative.
    public init(repeating value: Float, shape: [Int]) throws {
        try self.init(repeating: value, shape: shape, op: "Tensor(repeating:shape:)")
    }

    private init(repeating value: Float, shape: [Int], op: String) throws {
        self.shape = shape
        storage = TensorStorage(repeating: value, count: try Tensor.validatedElementCount(shape, op: op))
    }

    /// Uninitialized storage: for kernels that overwrite every element. The shape must come
    /// from already validated tensors (kernel outputs); user-facing shapes go through the
    /// throwing initializers.
    public init(uninitialized shape: [Int]) {
        precondition(!shape.contains { $0 < 0 }, "Tensor(uninitialized:): negative dimension in \(shape)")
        self.shape = shape
        storage = TensorStorage(count: Tensor.elementCount(shape))
    }

    public init(shape: [Int], values: [Float]) throws {
        let n = try Tensor.validatedElementCount(shape, op: "Tensor(shape:values:)")
        guard values.count == n else {
            throw TensorError.shapeMismatch(op: "Tensor(shape:values:)", shapes: [shape, [values.count]],
                                            reason: "shape holds \(n) elements but \(values.count) values were given")
        }
        self.shape = shape
        storage = TensorStorage(count: n)
        values.withUnsafeBufferPointer { storage.pointer.initialize(from: $0.baseAddress!, count: n) }
    }

    public init(shape: [Int], storage: TensorStorage) {
        precondition(Tensor.elementCount(shape) == storage.count, "Tensor(shape:storage:) element count")
        self.shape = shape
        self.storage = storage
    }

    public static func scalar(_ value: Float) -> Tensor { Tensor(shape: [], storage: TensorStorage(repeating: value, count: 1)) }

    public static func elementCount(_ shape: [Int]) -> Int { shape.reduce(1, *) }

    /// The element count of a shape given by a caller, or an error naming `op`, the shape and
    /// the bad dimension (negative sizes, or more elements than an Int can count).
    public static func validatedElementCount(_ shape: [Int], op: String) throws -> Int {
        var count = 1
        for (axis, size) in shape.enumerated() {
            guard size >= 0 else {
                throw TensorError.invalidArgument(op: op, reason: "dimension \(axis) of shape \(shape) is \(size); sizes must be ≥ 0")
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else { throw TensorError.invalidArgument(op: op, reason: "shape \(shape) has too many elements") }
            count = product
        }
        return count
    }

    /// All values, in row-major order (for tests and small tensors).
    public var values: [Float] { Array(UnsafeBufferPointer(start: storage.pointer, count: count)) }

    /// The single value of a one-element tensor.
    public var scalarValue: Float {
        precondition(count == 1, "scalarValue needs one element, shape is \(shape)")
        return storage.pointer[0]
    }

    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.pointer, count: count))
    }

    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return try body(UnsafeMutableBufferPointer(start: storage.pointer, count: count))
    }

    /// Read-only pointer; valid while this tensor (or a copy sharing its storage) is alive.
    public var pointer: UnsafePointer<Float> { UnsafePointer(storage.pointer) }

    /// The storage made this tensor's own (copied if shared) and its address, for a parallel
    /// loop that writes many tensors at once (an optimizer step). Valid while this tensor is
    /// alive and is neither copied nor mutated through another path.
    public mutating func uniqueMutablePointer() -> UnsafeMutablePointer<Float> {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.pointer
    }

    /// Same storage, new shape with the same element count.
    public func reshaped(_ newShape: [Int]) throws -> Tensor {
        guard Tensor.elementCount(newShape) == count else {
            throw TensorError.shapeMismatch(op: "reshape", shapes: [shape, newShape], reason: "element counts differ")
        }
        return Tensor(shape: newShape, storage: storage)
    }

    public subscript(flat index: Int) -> Float {
        get { storage.pointer[index] }
        set {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            storage.pointer[index] = newValue
        }
    }
}

extension Tensor: CustomStringConvertible {
    public var description: String {
        let shown = values.prefix(8).map { String($0) }.joined(separator: ", ")
        return "Tensor(shape: \(shape), values: [\(shown)\(count > 8 ? ", …" : "")])"
    }
}
