/// The audio format of a track, from its first sample description (`stsd` entry): the codec, the output
/// rate and channels, and what the codec's own config adds (AAC's `esds`, ALAC's magic cookie, Opus's
/// `dOps`, FLAC's `dfLa`).
struct MP4AudioFormat: Equatable {
    var codec: AudioFileInfo.Codec
    var sampleRate = 0
    var channels = 0
    var bitsPerSample: Int?
    /// Samples per channel one MP4 sample decodes to at the output rate (an AAC access unit: 1024, or 2048
    /// for HE-AAC); nil when it varies or is not known.
    var frameLength: Int?
    /// Opus's pre-skip: samples the decoder drops at the start.
    var preSkip = 0

    /// Reads a sound sample entry (`mp4a`, `alac`, `Opus`, `fLaC`); throws `unsupported` for another codec.
    init(entry: MP4Atom) throws(FormatError) {
        var c = ByteCursor(entry.payload)
        // SampleEntry: 6 reserved, data reference index; the QuickTime sound description's version decides
        // how much follows before the child atoms (v0 28 bytes, v1 16 more, v2 36 more).
        guard c.skip(8), let version = c.u16be(), c.skip(6), let channels16 = c.u16be(), let size16 = c.u16be(),
            c.skip(4), let rate1616 = c.u32be()
        else { throw FormatError("damaged", "the sample description '\(entry.type)' is too short") }
        c.skip(version == 1 ? 16 : version == 2 ? 36 : 0)
        let children = MP4Atom(type: entry.type, payload: c.bytes[min(c.position, c.bytes.endIndex)...])
        // A codec atom directly in the entry, or in a QuickTime `wave` atom.
        func config(_ type: FourCC) -> MP4Atom? { children.child(type) ?? children.child("wave", type) }

        codec = .aac
        channels = Int(channels16)
        sampleRate = Int(rate1616 >> 16)
        switch entry.type {
        case "mp4a":
            guard let esds = config("esds") else { throw FormatError("damaged", "an mp4a track without its esds atom") }
            try readAAC(MP4AudioSpecificConfig(esds: esds))
        case "alac":
            codec = .alac
            bitsPerSample = Int(size16)
            if let cookie = config("alac") { readALAC(cookie) }
        case "Opus":
            codec = .opus
            sampleRate = 48000
            if var d = config("dOps").map({ ByteCursor($0.payload) }), d.skip(1), let n = d.u8(), let skip = d.u16be() {
                channels = Int(n)
                preSkip = Int(skip)
            }
        case "fLaC":
            codec = .flac
            bitsPerSample = Int(size16)
            if let dfLa = config("dfLa") { readFLAC(dfLa) }
        default:
            throw FormatError("unsupported", "the codec '\(entry.type)' inside an MP4 file is not supported")
        }
        guard sampleRate > 0, channels > 0 else {
            throw FormatError("damaged", "the '\(entry.type)' sample description gives no rate or channels")
        }
    }

    private mutating func readAAC(_ asc: MP4AudioSpecificConfig) throws(FormatError) {
        switch asc.objectTypeIndication {
        case 0x40, 0x66, 0x67, 0x68: break
        case 0x69, 0x6B: throw FormatError("unsupported", "MPEG audio (MP3) inside an MP4 file is not supported")
        default:
            throw FormatError(
                "unsupported", "the MP4 audio object type 0x\(String(asc.objectTypeIndication, radix: 16))")
        }
        guard ![32, 33, 34].contains(asc.objectType) else {
            throw FormatError("unsupported", "MPEG layer 1–3 audio inside an MP4 file is not supported")
        }
        if asc.coreSampleRate > 0 {
            sampleRate = asc.outputSampleRate
            frameLength = asc.frameLength
        }
        if asc.parametricStereo {
            channels = 2
        } else if asc.channels > 0 {
            channels = asc.channels
        }
    }

    /// ALAC's magic cookie (ALACSpecificConfig): frame length, version, bit depth, the Rice parameters,
    /// channels, max run, max frame bytes, average bitrate, sample rate.
    private mutating func readALAC(_ cookie: MP4Atom) {
        guard var c = cookie.body, let frames = c.u32be(), c.skip(1), let depth = c.u8(), c.skip(3),
            let n = c.u8(), c.skip(10), let rate = c.u32be()
        else { return }
        frameLength = frames > 0 ? Int(frames) : nil
        bitsPerSample = Int(depth)
        channels = Int(n)
        sampleRate = Int(rate)
    }

    /// FLAC's `dfLa`: a full box holding FLAC metadata blocks, the first of which is STREAMINFO.
    private mutating func readFLAC(_ dfLa: MP4Atom) {
        guard var c = dfLa.body, let header = c.u8(), header & 0x7F == 0, c.skip(3 + 10),
            let packed = c.u64be()
        else { return }
        sampleRate = Int(packed >> 44)
        channels = Int(packed >> 41 & 0x7) + 1
        bitsPerSample = Int(packed >> 36 & 0x1F) + 1
    }
}
