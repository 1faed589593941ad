import Tensor

/// Half-precision storage (format 1.2): a tensor stored as float16 holds values that float16
/// represents exactly, so writing and reading it back gives the same floats bit for bit, and a
/// file read and written again is byte-identical. Rounding happens once, where a user asks for
/// it (`WeightsFile.storingFloat16()`, `screenlab weights convert --dtype float16`); the model
/// still computes in float32.
enum Float16Storage {
    /// Whether float16 holds `value` exactly (bit for bit: -0 stays -0; a NaN whose payload
    /// float16 cannot carry does not qualify).
    @inline(__always)
    static func isExact(_ value: Float) -> Bool { Float(Float16(value)).bitPattern == value.bitPattern }

    /// The index of the first value float16 does not hold exactly, if any.
    static func firstInexact(_ tensor: Tensor) -> Int? {
        tensor.withUnsafeBufferPointer { values in values.firstIndex { !isExact($0) } }
    }

    /// Little-endian float16 bytes of values that are exact in float16 (checked by the caller).
    static func write(_ tensor: Tensor, into target: UnsafeMutableRawBufferPointer) {
        tensor.withUnsafeBufferPointer { values in
            for (index, value) in values.enumerated() {
                target.storeBytes(of: Float16(value).bitPattern.littleEndian, toByteOffset: 2 * index, as: UInt16.self)
            }
        }
    }

    /// A float32 tensor from little-endian float16 bytes (every float16 is a float32 exactly).
    static func read(shape: [Int], littleEndianBytes data: UnsafeRawBufferPointer) -> Tensor {
        let count = data.count / 2
        let storage = TensorStorage(count: count)
        for index in 0..<count {
            storage.pointer[index] = Float(Float16(bitPattern: UInt16(littleEndian: data.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self))))
        }
        return Tensor(shape: shape, storage: storage)
    }

    /// The tensor rounded to the nearest float16 (ties to even), or nil when a finite value is
    /// beyond float16's range (±65504), which rounding would turn into an infinity.
    static func rounded(_ tensor: Tensor) -> Tensor? {
        let storage = TensorStorage(count: tensor.count)
        let fits: Bool = tensor.withUnsafeBufferPointer { values in
            for (index, value) in values.enumerated() {
                let half = Float16(value)
                if half.isInfinite && value.isFinite { return false }
                storage.pointer[index] = Float(half)
            }
            return true
        }
        return fits ? Tensor(shape: tensor.shape, storage: storage) : nil
    }
}

/// What rounding a file's tensors to float16 changed, per tensor (`weights convert` prints it).
public struct Float16Conversion: Sendable {
    public struct TensorChange: Sendable {
        public var name: String
        public var count: Int
        /// Largest |rounded − original| and largest |rounded − original| / |original| over
        /// values with |original| ≥ 2⁻¹⁴ (float16's smallest normal number; below it float16
        /// keeps fewer bits by design and the relative error says nothing useful).
        public var maxAbsoluteError: Float
        public var maxRelativeError: Float
        /// Non-zero values that became zero (below float16's smallest subnormal, 2⁻²⁴ ≈ 6e-8).
        public var flushedToZero: Int
    }

    /// Tensors now stored as float16, in file order.
    public var rounded: [TensorChange]
    /// Tensors kept as float32 because a value is beyond float16's range, with that value.
    public var keptFloat32: [(name: String, value: Float)]
}

extension WeightsFile {
    /// The same weights with every tensor rounded to float16 and marked for float16 storage,
    /// except tensors holding a value beyond float16's range (±65504), which stay float32 (and
    /// are named in the returned conversion). Half the bytes; the values change by at most
    /// 2⁻¹¹ relative (`Float16Conversion` says by how much each tensor did).
    public func storingFloat16() -> (weights: WeightsFile, conversion: Float16Conversion) {
        var copy = self
        copy.layout = nil
        var conversion = Float16Conversion(rounded: [], keptFloat32: [])
        for (position, (name, tensor)) in tensors.enumerated() {
            guard let rounded = Float16Storage.rounded(tensor) else {
                let outside = tensor.withUnsafeBufferPointer { $0.first { $0.isFinite && Float16($0).isInfinite } } ?? .infinity
                conversion.keptFloat32.append((name, outside))
                copy.float16Tensors.remove(name)
                continue
            }
            copy.tensors[position].tensor = rounded
            copy.float16Tensors.insert(name)
            conversion.rounded.append(Self.change(name: name, from: tensor, to: rounded))
        }
        return (copy, conversion)
    }

    /// The same weights stored as float32 throughout: exact (every float16 is a float32), so
    /// only the file's size and version change.
    public func storingFloat32() -> WeightsFile {
        var copy = self
        copy.layout = nil
        copy.float16Tensors = []
        return copy
    }

    private static func change(name: String, from original: Tensor, to rounded: Tensor) -> Float16Conversion.TensorChange {
        let smallestNormal = Float(Float16.leastNormalMagnitude)
        var change = Float16Conversion.TensorChange(name: name, count: original.count, maxAbsoluteError: 0, maxRelativeError: 0,
                                                    flushedToZero: 0)
        original.withUnsafeBufferPointer { before in
            rounded.withUnsafeBufferPointer { after in
                for index in before.indices {
                    let error = abs(after[index] - before[index])
                    change.maxAbsoluteError = max(change.maxAbsoluteError, error)
                    if abs(before[index]) >= smallestNormal {
                        change.maxRelativeError = max(change.maxRelativeError, error / abs(before[index]))
                    }
                    if before[index] != 0 && after[index] == 0 { change.flushedToZero += 1 }
                }
            }
        }
        return change
    }
}
