/// Decodes standard base64 (RFC 4648, `+` and `/`, optional `=` padding, line breaks and spaces ignored),
/// as `METADATA_BLOCK_PICTURE` and `COVERART` Vorbis comments hold pictures; nil for anything else.
enum Base64 {
    /// Decodes `text`, or nil when it holds a character outside the alphabet, misplaced padding, or would
    /// decode to more than `maxBytes`.
    static func decode(_ text: some Collection<UInt8>, maxBytes: Int) -> [UInt8]? {
        guard text.count / 4 * 3 <= maxBytes + 3 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            let value: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            guard padding == 0 else { return nil }  // data after padding
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard padding <= 2, bits < 6, out.count <= maxBytes else { return nil }
        return out
    }
}
