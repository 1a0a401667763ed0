/// An AIFF or AIFF-C file's `COMM` chunk: channels, frames, sample size, the 80-bit extended sample rate
/// and (AIFF-C) the compression type, checked against what the PCM decoder plays.
struct AIFFCommon: Equatable {
    var channels: Int
    var frames: Int
    var bitsPerSample: Int
    var sampleRate: Int
    var isFloat: Bool
    var bigEndian: Bool

    /// Bytes per sample frame (all channels).
    var frameSize: Int { channels * ((bitsPerSample + 7) / 8) }

    /// Parses the chunk's data; `isAIFC` says whether a compression type follows the rate.
    static func parse(_ data: [UInt8], isAIFC: Bool) throws(FormatError) -> AIFFCommon {
        var c = ByteCursor(data)
        guard let channels = c.u16be(), let frames = c.u32be(), let bits = c.u16be(), let exponent = c.u16be(),
            let mantissa = c.u64be()
        else { throw FormatError("damaged", "AIFF COMM chunk is too short (\(data.count) bytes)") }
        guard let rate = sampleRate(exponent: exponent, mantissa: mantissa) else {
            throw FormatError("damaged", "AIFF sample rate is not a usable number")
        }
        var common = AIFFCommon(
            channels: Int(channels), frames: Int(frames), bitsPerSample: Int(bits), sampleRate: rate, isFloat: false,
            bigEndian: true)
        if isAIFC {
            guard let type = c.take(4) else {
                throw FormatError("damaged", "AIFF-C COMM chunk has no compression type")
            }
            switch chunkID(type) {
            case "NONE", "twos": break
            case "sowt": common.bigEndian = false
            case "in24": common.bitsPerSample = 24
            case "in32": common.bitsPerSample = 32
            case "fl32", "FL32": (common.isFloat, common.bitsPerSample) = (true, 32)
            case "fl64", "FL64": (common.isFloat, common.bitsPerSample) = (true, 64)
            case let other: throw FormatError("unsupported", "AIFF-C compression '\(other)' is not played")
            }
        }
        guard channels > 0 else { throw FormatError("damaged", "AIFF COMM chunk says 0 channels") }
        guard common.isFloat || (1...32).contains(common.bitsPerSample) else {
            throw FormatError("unsupported", "AIFF samples of \(bits) bits")
        }
        return common
    }

    /// The integer nearest an 80-bit IEEE 754 extended value (sign and 15-bit exponent, 64-bit mantissa with
    /// its integer bit), when it is a rate between 1 Hz and 10 MHz.
    static func sampleRate(exponent: UInt16, mantissa: UInt64) -> Int? {
        guard exponent & 0x8000 == 0, mantissa != 0 else { return nil }
        let power = Int(exponent & 0x7FFF) - 16383 - 63
        guard power > -128, power < 64 else { return nil }
        let value = Double(sign: .plus, exponent: power, significand: Double(mantissa))
        guard value >= 1, value <= 10_000_000 else { return nil }
        return Int(value.rounded())
    }
}
