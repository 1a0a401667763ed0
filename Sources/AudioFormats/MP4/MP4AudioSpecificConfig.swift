/// MPEG-4 audio's decoder configuration, as an `esds` atom carries it: the `DecoderConfigDescriptor`'s
/// object type, and the `AudioSpecificConfig` bits (ISO/IEC 14496-3 1.6.2.1) with its SBR and PS
/// signalling, which double the output rate of HE-AAC and make HE-AAC v2 stereo.
struct MP4AudioSpecificConfig: Equatable {
    /// The `DecoderConfigDescriptor`'s objectTypeIndication: 0x40 MPEG-4 audio, 0x66–0x68 MPEG-2 AAC,
    /// 0x69 and 0x6B MPEG layer 3.
    var objectTypeIndication = 0
    /// The audio object type (2 AAC-LC, 5 SBR, 29 PS, …): the core's, under the SBR/PS signalling.
    var objectType = 0
    /// The core's sample rate (0 when unknown).
    var coreSampleRate = 0
    /// Channels from the channel configuration (0 when the configuration is 0: a program config element
    /// decides, and the sample entry's count is used).
    var channels = 0
    /// SBR is signalled (explicitly, or backward compatibly after the core's config): HE-AAC.
    var sbr = false
    /// Parametric stereo is signalled: HE-AAC v2, stereo out of a mono core.
    var parametricStereo = false
    /// The SBR output rate when signalled.
    var extensionSampleRate: Int?
    /// Samples per channel of one frame at the core's rate (1024 or 960; 512 or 480 for the low-delay types).
    var coreFrameLength = 1024

    /// The rate the decoder outputs.
    var outputSampleRate: Int { sbr ? (extensionSampleRate ?? coreSampleRate * 2) : coreSampleRate }
    /// Samples per channel one access unit decodes to, at the output rate.
    var frameLength: Int { sbr ? coreFrameLength * 2 : coreFrameLength }

    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    /// Channels of each channel configuration (ISO/IEC 14496-3 table 1.19, with the 2013 additions).
    static let channelCounts = [0, 1, 2, 3, 4, 5, 6, 8, 0, 0, 0, 7, 8, 24, 8]

    /// Reads an `esds` atom's descriptors: the ES descriptor, its decoder config, its decoder-specific info.
    init(esds: MP4Atom) throws(FormatError) {
        guard var c = esds.body, var es = Self.descriptor(&c) else {
            throw FormatError("damaged", "the esds atom holds no descriptor")
        }
        if es.tag == 3 {  // ES_Descriptor: id, flags, the optional parts the flags announce
            guard es.body.skip(2), let flags = es.body.u8() else {
                throw FormatError("damaged", "a short ES descriptor")
            }
            if flags & 0x80 != 0 { es.body.skip(2) }
            if flags & 0x40 != 0, let length = es.body.u8() { es.body.skip(Int(length)) }
            if flags & 0x20 != 0 { es.body.skip(2) }
            guard let config = Self.descriptor(&es.body) else {
                throw FormatError("damaged", "the ES descriptor holds no decoder config")
            }
            es = config
        }
        guard es.tag == 4, let oti = es.body.u8(), es.body.skip(12) else {
            throw FormatError("damaged", "the esds atom holds no decoder config descriptor")
        }
        objectTypeIndication = Int(oti)
        while let info = Self.descriptor(&es.body) {
            if info.tag == 5 {
                parse(info.body.bytes[info.body.position...])
                return
            }
        }
    }

    /// Reads the `AudioSpecificConfig` bits; stops quietly where they run out.
    init(_ bytes: ArraySlice<UInt8>) { parse(bytes) }

    private mutating func parse(_ bytes: ArraySlice<UInt8>) {
        var bits = BitReader(bytes)
        guard var type = bits.objectType(), let rate = bits.sampleRate(), let config = bits.read(4) else { return }
        objectType = type
        coreSampleRate = rate
        channels = Int(config) < Self.channelCounts.count ? Self.channelCounts[Int(config)] : 0
        if type == 5 || type == 29 {  // explicit hierarchical signalling: the extension's rate, then the core
            sbr = true
            parametricStereo = type == 29
            extensionSampleRate = bits.sampleRate()
            guard let core = bits.objectType() else { return }
            type = core
            objectType = core
            if core == 22, bits.read(4) == nil { return }
        }
        guard [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].contains(type) else { return }
        // GASpecificConfig: frame length, core coder delay, extension flags.
        guard let shortFrames = bits.read(1), let dependsOnCore = bits.read(1) else { return }
        coreFrameLength = type == 23 ? (shortFrames == 1 ? 480 : 512) : (shortFrames == 1 ? 960 : 1024)
        if dependsOnCore == 1, bits.read(14) == nil { return }
        guard let extensionFlag = bits.read(1), config != 0 else { return }  // a PCE follows: not read
        if type == 6 || type == 20, bits.read(3) == nil { return }
        if extensionFlag == 1 {
            if type == 22, bits.read(16) == nil { return }
            if [17, 19, 20, 23].contains(type), bits.read(3) == nil { return }
            if bits.read(1) == nil { return }
        }
        // Backward-compatible signalling after the core's config: sync 0x2B7, SBR, then sync 0x548, PS.
        guard !sbr, bits.remaining >= 16, bits.read(11) == 0x2B7, bits.objectType() == 5, bits.read(1) == 1 else {
            return
        }
        sbr = true
        extensionSampleRate = bits.sampleRate()
        if bits.remaining >= 12, bits.read(11) == 0x548, bits.read(1) == 1 { parametricStereo = true }
    }

    /// One descriptor: a tag byte, a length in up to four 7-bit groups, the body (cut to what is there).
    private static func descriptor(_ c: inout ByteCursor) -> (tag: UInt8, body: ByteCursor)? {
        guard let tag = c.u8() else { return nil }
        var length = 0
        for _ in 0..<4 {
            guard let b = c.u8() else { return nil }
            length = length << 7 | Int(b & 0x7F)
            if b & 0x80 == 0 { break }
        }
        guard let body = c.take(min(length, c.remaining)) else { return nil }
        return (tag, ByteCursor(body))
    }
}

/// Reads bits most significant first, as MPEG-4 audio configs are written; nil past the end.
private struct BitReader {
    let bytes: ArraySlice<UInt8>
    var bit = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var remaining: Int { bytes.count * 8 - bit }

    mutating func read(_ count: Int) -> UInt32? {
        guard count <= remaining else { return nil }
        var v: UInt32 = 0
        for _ in 0..<count {
            let byte = bytes[bytes.startIndex + bit / 8]
            v = v << 1 | UInt32(byte >> (7 - UInt8(bit % 8)) & 1)
            bit += 1
        }
        return v
    }

    /// An audio object type: 5 bits, 31 escaping to 32 + 6 more bits.
    mutating func objectType() -> Int? {
        guard let type = read(5) else { return nil }
        if type != 31 { return Int(type) }
        return read(6).map { 32 + Int($0) }
    }

    /// A sampling frequency: a 4-bit index into the table, 15 escaping to 24 bits of rate.
    mutating func sampleRate() -> Int? {
        guard let index = read(4) else { return nil }
        if index == 15 { return read(24).map(Int.init) }
        return Int(index) < MP4AudioSpecificConfig.sampleRates.count
            ? MP4AudioSpecificConfig.sampleRates[Int(index)] : 0
    }
}
