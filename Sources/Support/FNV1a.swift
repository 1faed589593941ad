/// 64-bit FNV-1a: a fast, stable, non-cryptographic fingerprint of bytes. What ScreenLab names a
/// thing by its content with (a class mix's cache tag, a data-parallel rank's start) and what
/// tests pin a drawing with; the same bytes give the same value on every machine and version.
public struct FNV1a {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func mix(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
}
