// libFuzzer entry point for the weights readers: `sh Fuzz/fuzz.sh weights [runs] [seconds]`.
// Each input is parsed as a .slw file, as a safetensors file, and as JSON text with Support's
// parser (strict, and with the Python options COCO files use); a crash, an out-of-bounds
// access (AddressSanitizer) or a broken invariant below is a bug. Errors are fine: that is
// the reader refusing bad input.
import Support
@testable import Weights

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    decodeAll(bytes)
    checkJSON(bytes)
    // Random mutations almost never keep the preamble and metadata CRC-32s valid, which would
    // stop the fuzzer at those checks; also parse a copy with the length and both checksums
    // recomputed so mutations reach the header JSON and tensor table checks.
    var sealed = Array(bytes)
    if sealed.count >= 64 {
        sealed.withUnsafeMutableBytes { reseal($0) }
        sealed.withUnsafeBytes { decodeAll($0) }
    }
    return 0
}

private func reseal(_ bytes: UnsafeMutableRawBufferPointer) {
    bytes.storeBytes(of: UInt64(bytes.count).littleEndian, toByteOffset: 16, as: UInt64.self)
    let header = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    let table = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
    if header < UInt64(bytes.count), table < UInt64(bytes.count), 64 + header + table <= UInt64(bytes.count) {
        let metadata = UnsafeRawBufferPointer(rebasing: bytes[64..<(64 + Int(header) + Int(table))])
        bytes.storeBytes(of: CRC32.checksum(metadata).littleEndian, toByteOffset: 56, as: UInt32.self)
    }
    let preamble = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<60]))
    bytes.storeBytes(of: preamble.littleEndian, toByteOffset: 60, as: UInt32.self)
}

private func decodeAll(_ bytes: UnsafeRawBufferPointer) {
    if let weights = try? WeightsFormat.decode(bytes, file: "fuzz.slw") {
        checkRoundTrip(weights)
    }
    if let weights = try? WeightsFormat.decode(bytes, file: "fuzz.slw", readerVersion: .v1_0) {
        precondition(weights.header.training == nil, "a 1.0 reader returned a 1.1 field")
    }
    if let safetensors = try? SafetensorsFile.decode(bytes, file: "fuzz.safetensors") {
        let again = safetensors.encoded().withUnsafeBytes { try? SafetensorsFile.decode($0, file: "again") }
        precondition(again?.tensors.map(\.name) == safetensors.tensors.map(\.name), "safetensors re-encode changed the tensors")
        _ = try? WeightsFile.headerFromMetadata(safetensors.metadata, file: "fuzz.safetensors")
    }
}

/// Whatever the reader accepts, the writer writes back, and reading that gives the same content.
private func checkRoundTrip(_ weights: WeightsFile) {
    guard let encoded = try? WeightsFormat.encode(weights, file: "again.slw") else {
        preconditionFailure("the writer refused content the reader accepted")
    }
    guard let again = encoded.withUnsafeBytes({ try? WeightsFormat.decode($0, file: "again.slw") }) else {
        preconditionFailure("the reader refused what the writer wrote")
    }
    precondition(again.header == weights.header, "header changed in a round trip")
    precondition(again.tensors.map(\.name) == weights.tensors.map(\.name), "tensor names changed in a round trip")
    for (a, b) in zip(again.tensors, weights.tensors) {
        precondition(a.tensor.shape == b.tensor.shape, "shape changed in a round trip")
        precondition(a.tensor.values.map(\.bitPattern) == b.tensor.values.map(\.bitPattern), "values changed in a round trip")
    }
}

/// Whatever the JSON parser accepts, its writer writes back and the parser reads the same value.
private func checkJSON(_ bytes: UnsafeRawBufferPointer) {
    for options in [JSONParser.Options.strict, .python] {
        guard let value = try? JSONParser.parse(bytes, options: options) else { continue }
        guard let again = try? JSONParser.parse(value.serialized, options: options) else {
            preconditionFailure("the parser refused what the writer wrote: \(value.serialized)")
        }
        precondition(again.serialized == value.serialized, "JSON changed in a round trip")  // text: NaN != NaN
    }
}
