/// The codecs an Ogg stream may carry that the project plays (Vorbis, Opus, FLAC), told apart by the first
/// packet of the stream, and what their header packets say.
enum OggCodec: Equatable {
    case vorbis, opus, flac

    /// The codec whose identification header `packet` is, or nil.
    init?(firstPacket packet: [UInt8]) {
        if packet.starts(with: [0x01] + Array("vorbis".utf8)) {
            self = .vorbis
        } else if packet.starts(with: Array("OpusHead".utf8)) {
            self = .opus
        } else if packet.starts(with: [0x7F] + Array("FLAC".utf8)) {
            self = .flac
        } else {
            return nil
        }
    }

    /// A name for a stream this reader does not play, from its first packet (for the `unsupported` reason).
    static func name(ofFirstPacket packet: [UInt8]) -> String {
        let known: [(String, [UInt8])] = [
            ("Speex", Array("Speex   ".utf8)), ("Theora", [0x80] + Array("theora".utf8)),
            ("Skeleton", Array("fishead\0".utf8)), ("Ogg FLAC 1.0", Array("fLaC".utf8)),
        ]
        return known.first { packet.starts(with: $0.1) }?.0 ?? "an unknown codec"
    }

    /// Vorbis's identification header: channels, rate, nominal bitrate.
    static func vorbisIdentification(_ packet: [UInt8], into info: inout AudioFileInfo) throws(FormatError) {
        var c = ByteCursor(packet)
        guard c.skip(7), let version = c.u32le(), let channels = c.u8(), let rate = c.u32le(), c.skip(4),
            let nominal = c.u32le()
        else { throw FormatError("damaged", "Vorbis identification header is cut short") }
        guard version == 0 else { throw FormatError("unsupported", "Vorbis version \(version)") }
        guard channels > 0, rate > 0 else {
            throw FormatError("damaged", "Vorbis header says \(channels) channels at \(rate) Hz")
        }
        info.channels = Int(channels)
        info.sampleRate = Int(rate)
        let bitrate = Int32(bitPattern: nominal)
        if bitrate > 0 { info.bitrate = Int(bitrate) / 1000 }
    }

    /// Opus's `OpusHead`: channels, pre-skip (the encoder's delay) and output gain; Opus decodes at 48 kHz.
    static func opusHead(_ packet: [UInt8], into info: inout AudioFileInfo) throws(FormatError) {
        var c = ByteCursor(packet)
        guard c.skip(8), let version = c.u8(), let channels = c.u8(), let preSkip = c.u16le(), c.skip(4),
            let gain = c.u16le()
        else { throw FormatError("damaged", "OpusHead is cut short") }
        guard version & 0xF0 == 0 else { throw FormatError("unsupported", "Opus header version \(version)") }
        guard channels > 0 else { throw FormatError("damaged", "OpusHead says 0 channels") }
        info.channels = Int(channels)
        info.sampleRate = 48000
        info.encoderDelay = Int(preSkip)
        info.outputGainQ78 = Int(Int16(bitPattern: gain))
    }

    /// The comment header of any of them: Vorbis's after its 7-byte type and name, Opus's after `OpusTags`.
    static func comments(_ packet: [UInt8], codec: OggCodec, into info: inout AudioFileInfo) {
        let magic: [UInt8] = codec == .vorbis ? [0x03] + Array("vorbis".utf8) : Array("OpusTags".utf8)
        guard packet.starts(with: magic) else {
            info.problems.append(FormatError("damaged", "the \(codec) comment header is missing"))
            return
        }
        VorbisComments(packet[magic.count...]).apply(to: &info)
    }

    /// Ogg FLAC's first packet (the mapping's header, then `fLaC` and the `STREAMINFO` block); returns how many
    /// header packets follow (0: not said, read until a block marked last).
    static func flacFirstPacket(_ packet: [UInt8], into info: inout AudioFileInfo) throws(FormatError) -> Int {
        var c = ByteCursor(packet)
        guard c.skip(5), let major = c.u8(), c.skip(1), let count = c.u16be(), let marker = c.take(4),
            marker.elementsEqual("fLaC".utf8), let header = c.take(4).flatMap(FLACMetadata.BlockHeader.init),
            header.type == FLACMetadata.streamInfo, let streamInfo = c.take(34)
        else { throw FormatError("damaged", "Ogg FLAC header packet is not a FLAC stream header") }
        guard major == 1 else { throw FormatError("unsupported", "Ogg FLAC mapping version \(major)") }
        try FLACMetadata.applyStreamInfo(streamInfo, to: &info)
        return Int(count)
    }

    /// One of Ogg FLAC's further header packets (one metadata block each); true when it is the last.
    static func flacMetadataPacket(_ packet: [UInt8], into info: inout AudioFileInfo) -> Bool {
        guard let header = FLACMetadata.BlockHeader(packet) else { return true }
        let data = packet.dropFirst(4).prefix(header.length)
        switch header.type {
        case FLACMetadata.vorbisComment:
            VorbisComments(data).apply(to: &info)
        case FLACMetadata.picture:
            switch FLACPicture.inline(data) {
            case .success(let picture): info.pictures.append(picture)
            case .failure(let error): info.problems.append(error)
            }
        default:
            break
        }
        return header.isLast
    }
}
