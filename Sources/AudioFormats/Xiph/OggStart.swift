/// Where an Ogg Vorbis or Opus stream's audio starts on the granule scale: not at 0 in a stream cut from a
/// live one (a recording of an Icecast stream, the remnant of a chained file), whose length is then its
/// last granule position less this start. Worked out as the decoders do it from the first audio page that
/// has a granule position: that position less the samples of the packets finished on it and the pages
/// before it (libvorbisfile's `_initial_pcmoffset`; opusfile's `op_find_initial_pcm_offset`, RFC 7845 §4.5).
/// A start below zero (a stream whose first samples are trimmed, a normal Vorbis case) counts as 0, as both
/// libraries count it.
enum OggStart {
    /// The start granule of a stream whose first audio page with a granule position is `granule` and whose
    /// audio packets up to the end of that page are `packets`; nil when a packet is not one of the codec's
    /// or the granule is negative (damage).
    static func granule(codec: OggCodec, packets: ArraySlice<[UInt8]>, granule: Int64, vorbis: VorbisBlocks?)
        -> Int64?
    {
        guard granule >= 0 else { return nil }
        var total: Int64 = 0
        switch codec {
        case .opus:
            for packet in packets {
                guard let samples = opusSamples(packet) else { return nil }
                total += Int64(samples)
            }
        case .vorbis:
            // Each packet after the first overlaps the one before by half of each window (Vorbis I §1.3.2).
            guard let vorbis else { return nil }
            var last: Int?
            for packet in packets {
                guard let block = vorbis.blockSize(packet) else { continue }  // not audio: skipped, as libvorbis does
                if let last { total += Int64((last + block) >> 2) }
                last = block
            }
        case .flac:
            return 0
        }
        return max(0, granule - total)
    }

    /// The samples (at 48 kHz) an Opus packet decodes to, from its TOC byte (RFC 6716 §3.1); nil for an
    /// empty packet or a code-3 packet without its frame count.
    static func opusSamples(_ packet: [UInt8]) -> Int? {
        guard let toc = packet.first else { return nil }
        let config = Int(toc >> 3)
        let frame: Int
        switch config {
        case 0..<12: frame = [480, 960, 1920, 2880][config & 3]  // SILK: 10, 20, 40, 60 ms
        case 12..<16: frame = [480, 960][config & 1]  // hybrid: 10, 20 ms
        default: frame = [120, 240, 480, 960][config & 3]  // CELT: 2.5, 5, 10, 20 ms
        }
        switch toc & 3 {
        case 0: return frame
        case 1, 2: return frame * 2
        default:
            guard packet.count >= 2 else { return nil }
            return frame * Int(packet[1] & 0x3F)
        }
    }
}

/// A Vorbis stream's two block sizes (identification header) and which of its modes use the long one
/// (setup header): what an audio packet's block size is read from, its first bits being its mode.
///
/// The modes are the last part of the setup header, after codebooks, floors, residues and mappings whose
/// lengths are only known by decoding them; as FFmpeg's Vorbis parser does, they are read backwards from
/// the framing bit at the end: each mode is 41 bits (block flag, window type 0, transform type 0, mapping),
/// and the mode count before them is the one that matches how many such modes are found.
struct VorbisBlocks {
    var short: Int
    var long: Int
    var longModes: [Bool]

    init?(identification: [UInt8], setup: [UInt8]) {
        guard identification.count >= 29, setup.count > 7 else { return nil }
        let sizes = identification[28]
        short = 1 << Int(sizes & 0x0F)
        long = 1 << Int(sizes >> 4)
        guard let modes = Self.modes(Array(setup.dropFirst(7))) else { return nil }
        longModes = modes
    }

    /// The block size of an audio packet; nil for a packet that is not audio (its first bit set) or empty.
    func blockSize(_ packet: [UInt8]) -> Int? {
        guard let first = packet.first, first & 1 == 0 else { return nil }
        // The mode number follows the type bit, in ilog(modes - 1) bits, least significant first.
        var bits = 0
        var v = longModes.count - 1
        while v > 0 {
            bits += 1
            v >>= 1
        }
        var mode = 0
        for i in 0..<bits {
            let position = 1 + i
            guard position / 8 < packet.count else { return nil }
            mode |= Int(packet[position / 8] >> (position % 8) & 1) << i
        }
        guard mode < longModes.count else { return nil }
        return longModes[mode] ? long : short
    }

    /// Each mode's block flag, in order, read backwards from the end of the setup header's body.
    static func modes(_ body: [UInt8]) -> [Bool]? {
        // Bit n counted from the end (n = 0 the last bit written); Vorbis packs bits least significant first.
        let total = body.count * 8
        func bit(_ n: Int) -> Int {
            let position = total - 1 - n
            return Int(body[position / 8] >> (position % 8) & 1)
        }
        func value(from n: Int, count: Int) -> Int {  // the field whose last-written bit is bit n from the end
            var v = 0
            for i in 0..<count { v = v << 1 | bit(n + i) }
            return v
        }
        // The framing bit: the last bit set (bits after it pad the last byte).
        var n = 0
        while n < total, bit(n) == 0 { n += 1 }
        guard n < total else { return nil }
        n += 1
        let modesStart = n
        var count = 0
        var matched = 0
        while n + 41 + 6 <= total, count < 64 {
            // Backwards: mapping (8 bits, at most 63), transform type and window type (16 bits each, 0).
            guard value(from: n, count: 8) <= 63, value(from: n + 8, count: 16) == 0,
                value(from: n + 24, count: 16) == 0
            else { break }
            n += 41
            count += 1
            if value(from: n, count: 6) + 1 == count { matched = count }
        }
        guard matched > 0 else { return nil }
        // The block flag is each mode's first bit, so the last read backwards; modes come last-first.
        return (0..<matched).map { i in bit(modesStart + (matched - 1 - i) * 41 + 40) == 1 }
    }
}
