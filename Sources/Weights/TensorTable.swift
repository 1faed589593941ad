extension WeightsFormat {
    /// Parses the tensor table and checks each entry: name, dtype, shape, byte length, bounds,
    /// alignment, and that no two tensors share bytes.
    static func decodeTable(_ table: UnsafeRawBufferPointer, count: UInt64, dataOffset: UInt64, fileSize: Int,
                            file: String, fileVersion: FormatVersion, skipsUnknownFields: Bool) throws -> [TensorEntry] {
        // Checked before allocating: a corrupt count cannot make the reader reserve memory.
        guard count <= UInt64(table.count / minimumEntrySize) else {
            throw WeightsError.invalidLayout(file: file, reason: "\(count) tensors cannot fit in a \(table.count)-byte tensor table")
        }
        var cursor = ByteCursor(table)
        var entries: [TensorEntry] = []
        entries.reserveCapacity(Int(count))
        var names = Set<String>()
        for index in 0..<Int(count) {
            guard let entryLength = cursor.read(UInt32.self), let body = cursor.take(Int(entryLength)) else {
                throw WeightsError.invalidTensorEntry(file: file, index: index, tensor: nil, reason: "runs past the end of the tensor table")
            }
            let entry = try decodeEntry(body, index: index, file: file, fileVersion: fileVersion, skipsUnknownFields: skipsUnknownFields)
            guard names.insert(entry.name).inserted else { throw WeightsError.duplicateTensor(file: file, tensor: entry.name) }
            try checkPlacement(entry, dataOffset: dataOffset, fileSize: fileSize, file: file)
            entries.append(entry)
        }
        guard cursor.remaining == 0 else {
            throw WeightsError.invalidLayout(file: file, reason: "\(cursor.remaining) bytes left over after the \(count) tensor table entries")
        }
        try checkNoOverlap(entries, file: file)
        return entries
    }

    private static func decodeEntry(_ body: UnsafeRawBufferPointer, index: Int, file: String, fileVersion: FormatVersion,
                                    skipsUnknownFields: Bool) throws -> TensorEntry {
        var cursor = ByteCursor(body)
        func fail(_ name: String?, _ reason: String) -> WeightsError {
            .invalidTensorEntry(file: file, index: index, tensor: name, reason: reason)
        }
        guard let nameLength = cursor.read(UInt16.self), let nameBytes = cursor.take(Int(nameLength)) else {
            throw fail(nil, "entry is too short for its name")
        }
        guard nameLength > 0, let name = String(validating: nameBytes, as: UTF8.self) else {
            throw fail(nil, "tensor name is empty or not valid UTF-8")
        }
        guard let dtypeCode = cursor.read(UInt8.self), let rank = cursor.read(UInt8.self) else { throw fail(name, "entry is truncated") }
        guard let dtype = TensorDType(rawValue: dtypeCode) else {
            throw fail(name, "element type code \(dtypeCode) is unknown (1 = float32, 2 = float16); written by a newer ScreenLab?")
        }
        // Judged by the file's own label, as header fields are: a 1.1 file cannot hold float16.
        guard dtype.since <= fileVersion else {
            throw fail(name, "element type \(dtype) (code \(dtypeCode)) is from format \(dtype.since), but the file says it is \(fileVersion)")
        }
        guard Int(rank) <= maximumRank else { throw fail(name, "rank \(rank) exceeds \(maximumRank)") }
        var shape: [Int] = []
        var elements: UInt64 = 1
        var overflow = false
        for _ in 0..<rank {
            guard let dimension = cursor.read(UInt64.self) else { throw fail(name, "entry is truncated") }
            guard dimension <= UInt64(Int32.max) else { throw fail(name, "dimension \(dimension) is implausibly large") }
            shape.append(Int(dimension))
            let product = elements.multipliedReportingOverflow(by: dimension)
            elements = product.partialValue
            overflow = overflow || product.overflow
        }
        guard let offset = cursor.read(UInt64.self), let byteLength = cursor.read(UInt64.self),
              let checksum = cursor.read(UInt32.self) else { throw fail(name, "entry is truncated") }
        let expected = elements.multipliedReportingOverflow(by: UInt64(dtype.byteWidth))
        guard !overflow, !expected.overflow, expected.partialValue == byteLength else {
            throw WeightsError.byteLengthMismatch(file: file, tensor: name, shape: shape, byteLength: byteLength,
                                                  expected: overflow || expected.overflow ? UInt64.max : expected.partialValue)
        }
        guard cursor.remaining == 0 || skipsUnknownFields else {
            throw fail(name, "\(cursor.remaining) unexpected bytes at the end of the entry")
        }
        return TensorEntry(name: name, dtype: dtype, shape: shape, offset: offset, byteLength: byteLength, checksum: checksum)
    }

    private static func checkPlacement(_ entry: TensorEntry, dataOffset: UInt64, fileSize: Int, file: String) throws {
        let (end, overflow) = entry.offset.addingReportingOverflow(entry.byteLength)
        guard entry.offset >= dataOffset, !overflow, end <= UInt64(fileSize) else {
            throw WeightsError.tensorOutOfBounds(file: file, tensor: entry.name, offset: entry.offset,
                                                 byteLength: entry.byteLength, fileSize: fileSize)
        }
        guard entry.offset % alignment == 0 else {
            throw WeightsError.unalignedTensor(file: file, tensor: entry.name, offset: entry.offset)
        }
    }

    private static func checkNoOverlap(_ entries: [TensorEntry], file: String) throws {
        let sorted = entries.filter { $0.byteLength > 0 }.sorted { $0.offset < $1.offset }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.offset + previous.byteLength > next.offset {
            throw WeightsError.overlappingTensors(file: file, first: previous.name, second: next.name)
        }
    }
}
