/// The FLAC metadata blocks every FLAC carrier shares (a native `.flac` file and Ogg FLAC's header packets):
/// the block header, `STREAMINFO` into the stream's facts, and `VORBIS_COMMENT` into tags.
enum FLACMetadata {
    static let streamInfo = 0
    static let vorbisComment = 4
    static let picture = 6

    /// A metadata block header: whether it is the last, its type and its length.
    struct BlockHeader {
        var isLast: Bool
        var type: Int
        var length: Int

        init?(_ bytes: some Collection<UInt8>) {
            var c = ByteCursor(Array(bytes.prefix(4)))
            guard let first = c.u8(), let length = c.u24be() else { return nil }
            isLast = first & 0x80 != 0
            type = Int(first & 0x7F)
            self.length = Int(length)
        }
    }

    /// Applies a `STREAMINFO` block's data: rate, channels, bits and total samples (0: not known, so
    /// `samples` stays nil with a `length-unknown` problem). A rate of 0 or a block cut short is `damaged`.
    static func applyStreamInfo(_ data: some Collection<UInt8>, to info: inout AudioFileInfo) throws(FormatError) {
        var c = ByteCursor(Array(data.prefix(34)))
        guard c.skip(10), let packed = c.u64be() else {
            throw FormatError("damaged", "FLAC STREAMINFO is cut short (\(data.count) bytes)")
        }
        let rate = Int(packed >> 44)
        guard rate > 0 else { throw FormatError("damaged", "FLAC STREAMINFO says a sample rate of 0") }
        info.sampleRate = rate
        info.channels = Int(packed >> 41 & 0x7) + 1
        info.bitsPerSample = Int(packed >> 36 & 0x1F) + 1
        let total = Int64(packed & 0xF_FFFF_FFFF)
        if total > 0 {
            info.samples = total
        } else {
            info.problems.append(
                FormatError("length-unknown", "FLAC STREAMINFO does not say how many samples there are"))
        }
    }
}

/// The average bitrate in kbit/s of `bytes` of audio playing `samples` at `rate`, clamped to a sane range
/// (a hostile header's tiny length must not overflow the conversion); 0 when either is unknown.
func averageKilobits(bytes: Int, samples: Int64, rate: Int) -> Int {
    guard bytes > 0, samples > 0, rate > 0 else { return 0 }
    let kbps = Double(bytes) * 8 * Double(rate) / Double(samples) / 1000
    return kbps.isFinite ? Int(min(kbps, 1e9)) : 0
}
