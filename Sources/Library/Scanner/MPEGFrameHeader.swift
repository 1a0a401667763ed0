/// One MPEG audio frame header (the 4 bytes before each frame), decoded.
///
/// Used by the scanner to find where audio starts (junk before the first frame), to read the
/// Xing/Info/VBRI header, and to tell an MP3 from other data; decoding is libmpg123's job.
struct MPEGFrameHeader: Equatable {
    /// 1 = MPEG 1, 2 = MPEG 2, 3 = MPEG 2.5.
    var version: Int
    var layer: Int
    var bitrate: Int  // kbit/s
    var sampleRate: Int
    var padding: Bool
    var channels: Int
    var crcProtected: Bool

    private static let bitrates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // V1 L1
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],  // V1 L2
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],  // V1 L3
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],  // V2 L1
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],  // V2 L2/L3
    ]
    private static let rates = [[44100, 48000, 32000], [22050, 24000, 16000], [11025, 12000, 8000]]

    /// Decodes the header at `bytes[at]`, or nil when the 4 bytes are not a valid (non-free-format) header.
    init?(_ bytes: UnsafeRawBufferPointer, at i: Int) {
        guard i >= 0, i + 4 <= bytes.count, bytes[i] == 0xFF, bytes[i + 1] & 0xE0 == 0xE0 else { return nil }
        let b1 = bytes[i + 1], b2 = bytes[i + 2], b3 = bytes[i + 3]
        switch (b1 >> 3) & 3 {
        case 3: version = 1
        case 2: version = 2
        case 0: version = 3
        default: return nil
        }
        switch (b1 >> 1) & 3 {
        case 3: layer = 1
        case 2: layer = 2
        case 1: layer = 3
        default: return nil
        }
        crcProtected = b1 & 1 == 0
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 3)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let table = version == 1 ? layer - 1 : (layer == 1 ? 3 : 4)
        bitrate = Self.bitrates[table][bitrateIndex]
        sampleRate = Self.rates[version - 1][rateIndex]
        padding = (b2 >> 1) & 1 == 1
        channels = (b3 >> 6) == 3 ? 1 : 2
        guard b3 & 3 != 2 else { return nil }  // reserved emphasis
    }

    /// Samples per channel in one frame.
    var samplesPerFrame: Int { layer == 1 ? 384 : (layer == 3 && version != 1 ? 576 : 1152) }

    /// Frame length in bytes, header included.
    var length: Int {
        if layer == 1 { return (12 * bitrate * 1000 / sampleRate + (padding ? 1 : 0)) * 4 }
        let factor = (layer == 3 && version != 1) ? 72 : 144
        return factor * bitrate * 1000 / sampleRate + (padding ? 1 : 0)
    }

    /// True when `other` can belong to the same stream (same version, layer and rate).
    func matches(_ other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }

    /// Where a Xing/Info header would start inside a Layer III frame: after the side information.
    var xingOffset: Int {
        let side = version == 1 ? (channels == 1 ? 17 : 32) : (channels == 1 ? 9 : 17)
        return 4 + (crcProtected ? 2 : 0) + side
    }
}

/// What the first frame's Xing, Info or VBRI header says about the stream.
struct VBRHeader: Equatable {
    enum Kind: Equatable { case xing, info, vbri }
    var kind: Kind
    var frames: Int?
    var bytes: Int?

    /// Reads a Xing/Info header (Layer III) or a VBRI header in the frame at `at`.
    init?(_ buf: UnsafeRawBufferPointer, frameAt at: Int, header: MPEGFrameHeader) {
        func be32(_ o: Int) -> Int? {
            guard o >= 0, o + 4 <= buf.count else { return nil }
            return Int(buf[o]) << 24 | Int(buf[o + 1]) << 16 | Int(buf[o + 2]) << 8 | Int(buf[o + 3])
        }
        func tag(_ o: Int, _ s: String) -> Bool {
            let u = Array(s.utf8)
            guard o >= 0, o + u.count <= buf.count else { return false }
            return (0..<u.count).allSatisfy { buf[o + $0] == u[$0] }
        }
        let x = at + header.xingOffset
        if header.layer == 3, tag(x, "Xing") || tag(x, "Info") {
            kind = tag(x, "Xing") ? .xing : .info
            let flags = be32(x + 4) ?? 0
            var o = x + 8
            frames = nil
            bytes = nil
            if flags & 1 != 0 {
                frames = be32(o)
                o += 4
            }
            if flags & 2 != 0 { bytes = be32(o) }
        } else if tag(at + 36, "VBRI") {
            kind = .vbri
            bytes = be32(at + 36 + 10)
            frames = be32(at + 36 + 14)
        } else {
            return nil
        }
    }
}
