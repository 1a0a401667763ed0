import ClickWheelCore

/// Makes damaged copies of a file's bytes, repeatably (SplitMix64 from a seed), for the tests that feed
/// every reader and decoder mutated real files: a failing mutant is made again from its seed and number.
public struct ByteMutator {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// A seed from a name (a format's suffix), the same in every run.
    public init(name: String) { self.init(seed: name.utf8.reduce(0x5EED) { $0 &* 31 &+ UInt64($1) }) }

    public mutating func next() -> UInt64 { generator.next() }

    /// A number in 0..<n.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// `bytes` with one of: 1–16 bytes flipped (half the time in the first 4 KiB, where the headers
    /// are), a 64-byte run overwritten, or the file cut short.
    public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        guard b.count > 1 else { return b }
        switch below(3) {
        case 0:
            for _ in 0..<(1 + below(16)) {
                let at = below(2) == 0 ? below(min(4096, b.count)) : below(b.count)
                b[at] ^= UInt8(truncatingIfNeeded: 1 + below(255))
            }
        case 1:
            let at = below(b.count)
            for i in at..<min(b.count, at + 64) { b[i] = UInt8(truncatingIfNeeded: next()) }
        default:
            b.removeLast(1 + below(b.count - 1))
        }
        return b
    }
}
