// libFuzzer entry point for the weights readers: `sh fuzz.sh [seconds]`.
// Each input is parsed as a .slw file and as a safetensors file; a crash, an out-of-bounds
// access (AddressSanitizer) or a broken invariant below is a bug. Errors are fine: that is
// the reader refusing bad input.
@testable import Weights

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
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
    return 0
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
