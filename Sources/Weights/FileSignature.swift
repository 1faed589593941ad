/// What a file is, judged from its first bytes, so a reader given the wrong kind of file can
/// say "this is a PNG image" instead of reporting a nonsense length.
enum FileSignature {
    private static let known: [(bytes: [UInt8], kind: String)] = [
        (WeightsFormat.magic, "a ScreenLab weights file (.slw)"),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
        ([0xFF, 0xD8, 0xFF], "a JPEG image"),
        ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (PyTorch .pt/.pth checkpoints are ZIP archives: save with safetensors instead)"),
    ]

    /// A short description of the file, or nil when its start is not a signature we know.
    static func kind(of prefix: some Collection<UInt8>) -> String? {
        known.first { prefix.starts(with: $0.bytes) }?.kind
    }
}
