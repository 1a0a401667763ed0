/// A WAV file's `fmt ` chunk: the sample format the PCM decoder is told to play, checked against what
/// it plays (integer PCM of 8, 16, 24 or 32 bits, IEEE float of 32 or 64 bits, plain or in a
/// `WAVE_FORMAT_EXTENSIBLE` wrapper whose subformat GUID names one of those).
struct WAVFormat: Equatable {
    var channels: Int
    var sampleRate: Int
    /// Bytes per sample frame (all channels) as the chunk says it; the reader goes by `frameSize`.
    var blockAlign: Int
    /// The container's bits per sample (`wBitsPerSample`): a 20-bit stream in 24-bit slots says 24.
    var bitsPerSample: Int
    var isFloat: Bool

    /// Bytes per sample frame, from the channels and bits (as libsndfile does when `blockAlign` disagrees).
    var frameSize: Int { channels * bitsPerSample / 8 }

    static let pcm: UInt16 = 1
    static let ieeeFloat: UInt16 = 3
    static let extensible: UInt16 = 0xFFFE
    /// The tail every `KSDATAFORMAT_SUBTYPE_*` GUID of a WAVE format code shares (after its 2-byte code
    /// and 2 zero bytes): 00000000-0010-0080-00AA00389B71.
    static let guidTail: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    /// Parses the chunk's data; a format the decoder does not play is `unsupported`, a broken one `damaged`.
    static func parse(_ data: [UInt8]) throws(FormatError) -> WAVFormat {
        var c = ByteCursor(data)
        guard var tag = c.u16le(), let channels = c.u16le(), let rate = c.u32le(), c.skip(4),
            let blockAlign = c.u16le(), let bits = c.u16le()
        else { throw FormatError("damaged", "WAV fmt chunk is too short (\(data.count) bytes)") }
        if tag == extensible {
            guard c.skip(8), let guid = c.take(16) else {
                throw FormatError("damaged", "WAV extensible fmt chunk is too short (\(data.count) bytes)")
            }
            guard Array(guid.dropFirst(4)) == guidTail, guid[guid.startIndex + 2] == 0, guid[guid.startIndex + 3] == 0
            else { throw FormatError("unsupported", "WAV extensible subformat \(hex(guid)) is not PCM or float") }
            tag = UInt16(guid[guid.startIndex]) | UInt16(guid[guid.startIndex + 1]) << 8
        }
        let isFloat: Bool
        switch (tag, bits) {
        case (pcm, 8), (pcm, 16), (pcm, 24), (pcm, 32): isFloat = false
        case (ieeeFloat, 32), (ieeeFloat, 64): isFloat = true
        case (pcm, _), (ieeeFloat, _):
            throw FormatError("unsupported", "WAV \(tag == pcm ? "integer" : "float") samples of \(bits) bits")
        default:
            throw FormatError("unsupported", "WAV format 0x\(String(tag, radix: 16)) is not PCM or float")
        }
        guard channels > 0 else { throw FormatError("damaged", "WAV fmt chunk says 0 channels") }
        guard rate > 0 else { throw FormatError("damaged", "WAV fmt chunk says a sample rate of 0") }
        return WAVFormat(
            channels: Int(channels), sampleRate: Int(rate), blockAlign: Int(blockAlign), bitsPerSample: Int(bits),
            isFloat: isFloat)
    }

    private static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
    }
}
