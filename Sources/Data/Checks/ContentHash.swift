import Foundation

/// A fast, non-cryptographic 64-bit hash of file bytes for finding duplicate images.
///
/// Eight bytes at a time: xor into the state, multiply by a large odd constant, fold the high
/// bits down (the multiply-xorshift mixing of MurmurHash/SplitMix); the length is mixed in last
/// so files that differ only by trailing zeros differ. Not collision-resistant against an
/// adversary, which duplicate detection does not need: `DatasetChecker` confirms every hash
/// match by comparing the bytes, so a collision can never report a false duplicate.
public enum ContentHash {
    public static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { raw -> UInt64 in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            let words = raw.count / 8
            for i in 0..<words {
                let word = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                state = (state ^ word) &* 0xBF58_476D_1CE4_E5B9
                state ^= state >> 31
            }
            var tail: UInt64 = 0
            for i in (words * 8)..<raw.count { tail = tail << 8 | UInt64(raw[i]) }
            state = (state ^ tail ^ UInt64(raw.count)) &* 0x94D0_49BB_1331_11EB
            return state ^ (state >> 29)
        }
    }
}
