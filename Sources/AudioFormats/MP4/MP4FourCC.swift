/// An atom's four-character type (`moov`, `©nam`), kept as its 32-bit big-endian value so that
/// comparing types costs one integer compare and a hostile type never needs decoding.
struct FourCC: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A literal of four Latin-1 characters (`"©nam"` is A9 6E 61 6D, as iTunes writes it).
    init(stringLiteral value: String) {
        var v: UInt32 = 0
        var count = 0
        for scalar in value.unicodeScalars {
            precondition(scalar.value < 256, "a four-character code is Latin-1: \(value)")
            v = v << 8 | scalar.value
            count += 1
        }
        precondition(count == 4, "a four-character code has four characters: \(value)")
        rawValue = v
    }

    /// The four bytes as Latin-1 text (each byte one character), as a report or an `.other` key names it.
    var description: String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    var bytes: [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) } }

    /// True when all four bytes are printable Latin-1 (or ©): what a real atom type looks like.
    var looksLikeAType: Bool {
        bytes.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0xA9 }
    }
}
