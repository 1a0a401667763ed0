/// Reads an Ogg file's first playable logical stream (Vorbis, Opus, or FLAC in Ogg): its header packets at the
/// front for the stream's facts and tags, its first audio page (Vorbis and Opus) for where the audio starts,
/// and its last page at the back for the exact length, never the audio pages between.
///
/// The stream is the first whose beginning-of-stream page holds a codec played here (a Skeleton or Theora
/// stream beside it is passed over). Lengths: Vorbis and Ogg FLAC, the last granule position; Opus, the
/// last granule position less the pre-skip (which is also `encoderDelay`; Opus always decodes at 48 kHz).
/// A stream whose audio does not start at granule 0 (one cut from a live stream) has that start
/// (`OggStart`, from the first audio page with a granule position) taken off its length.
/// Called from any thread; it holds no state.
public enum OggReader {
    /// The most bytes read at the front for the header packets (a comment header with pictures is large).
    static let headerBudget = OggPacketAssembler.maxPacket + (4 << 20)

    public static func read(_ source: some ByteSource) throws(FormatError) -> AudioFileInfo {
        try read(source, verifyChecksums: true)
    }

    /// `verifyChecksums: false` accepts pages whatever their checksum (the fuzz target's way past it).
    static func read(_ source: some ByteSource, verifyChecksums: Bool) throws(FormatError) -> AudioFileInfo {
        var pages = OggPageReader(source: source, budget: headerBudget, verifyChecksums: verifyChecksums)
        guard let first = try pages.next() else { throw FormatError("not-audio", "not an Ogg file (no Ogg page)") }
        guard first.page.isFirst else {
            throw FormatError("damaged", "Ogg file does not start with the first page of a stream")
        }
        // The beginning-of-stream pages come first, one per logical stream, each holding one whole packet.
        var chosen: (codec: OggCodec, assembler: OggPacketAssembler)?
        var others: [String] = []
        var current: (page: OggPage, bytes: ArraySlice<UInt8>, offset: Int)? = first
        while let page = current, page.page.isFirst {
            var assembler = OggPacketAssembler(serial: page.page.serial)
            assembler.add(page.page, page.bytes)
            let packet = assembler.packets.first ?? []
            if chosen == nil, let codec = OggCodec(firstPacket: packet) {
                chosen = (codec, assembler)
            } else if chosen == nil {
                others.append(OggCodec.name(ofFirstPacket: packet))
            }
            current = try pages.next()
        }
        guard let chosen else {
            throw FormatError("unsupported", "Ogg stream of \(others.first ?? "an unknown codec") is not played")
        }
        let codec = chosen.codec
        var assembler = chosen.assembler
        var info = AudioFileInfo(container: .ogg, codec: codec == .vorbis ? .vorbis : codec == .opus ? .opus : .flac)
        let identification = assembler.packets[0]
        var headersEnd = first.offset + first.page.length
        var flacHeaders = 0
        switch codec {
        case .vorbis: try OggCodec.vorbisIdentification(identification, into: &info)
        case .opus: try OggCodec.opusHead(identification, into: &info)
        case .flac: flacHeaders = try OggCodec.flacFirstPacket(identification, into: &info)
        }
        // The rest of the header packets: Vorbis and Opus need their comment header (the second packet);
        // Ogg FLAC has its metadata blocks, one per packet, up to the one marked last.
        var used = 1
        var done = false
        var setup: [UInt8] = []
        while !done {
            while assembler.packets.count <= used, !assembler.overflowed, let page = current {
                assembler.add(page.page, page.bytes)
                if page.page.serial == assembler.serial { headersEnd = page.offset + page.page.length }
                current = try pages.next()
            }
            guard assembler.packets.count > used else {
                info.problems.append(
                    FormatError("damaged", "Ogg \(codec) header packets are missing (file cut short?)"))
                break
            }
            let packet = assembler.packets[used]
            used += 1
            switch codec {
            case .vorbis where used == 3:
                setup = packet  // the setup header: its modes give each audio packet's block size
                done = true
            case .vorbis, .opus:
                OggCodec.comments(packet, codec: codec, into: &info)
                done = codec == .opus
            case .flac:
                let last = OggCodec.flacMetadataPacket(packet, into: &info)
                done = last || (flacHeaders > 0 && used > flacHeaders) || used > 1024
            }
        }
        let start = try startGranule(
            codec: codec, pages: &pages, current: current, assembler: &assembler, headers: used,
            vorbis: codec == .vorbis ? VorbisBlocks(identification: identification, setup: setup) : nil)
        info.problems += assembler.problems
        if pages.badPages > 0 {
            info.problems.append(FormatError("damaged", "\(pages.badPages) Ogg pages with a bad checksum were skipped"))
        }
        try length(
            source, serial: assembler.serial, codec: codec, headersEnd: headersEnd, start: start,
            verifyChecksums: verifyChecksums, into: &info)
        return info
    }

    /// The most pages read past the headers for the first one with a granule position.
    static let startPages = 16

    /// Where the stream's audio starts on the granule scale (`OggStart`), from the pages after the headers
    /// up to the first of the stream with a granule position (already in the front window's bytes as a
    /// rule); 0 when none is found, for Ogg FLAC, or when a packet is not one of the codec's.
    static func startGranule(
        codec: OggCodec, pages: inout OggPageReader, current: (page: OggPage, bytes: ArraySlice<UInt8>, offset: Int)?,
        assembler: inout OggPacketAssembler, headers: Int, vorbis: VorbisBlocks?
    ) throws(FormatError) -> Int64 {
        guard codec != .flac, assembler.packets.count == headers, !assembler.overflowed else { return 0 }
        var next = current
        for _ in 0..<startPages {
            guard let page = next else { return 0 }
            if page.page.isFirst && page.page.serial != assembler.serial { return 0 }  // a chained next stream
            if page.page.serial == assembler.serial {
                assembler.add(page.page, page.bytes)
                if page.page.granule != -1 {
                    let packets = assembler.packets[headers...]
                    return OggStart.granule(codec: codec, packets: packets, granule: page.page.granule, vorbis: vorbis)
                        ?? 0
                }
            }
            next = try pages.next()
        }
        return 0
    }

    /// Sets `samples` (and the average bitrate) from the stream's last granule position less `start`.
    static func length(
        _ source: some ByteSource, serial: UInt32, codec: OggCodec, headersEnd: Int, start: Int64,
        verifyChecksums: Bool, into info: inout AudioFileInfo
    ) throws(FormatError) {
        let known = info.samples
        info.samples = nil
        guard
            let last = try OggTail.lastPage(
                source, serial: serial, floor: headersEnd, verifyChecksums: verifyChecksums)
        else {
            if let known {
                info.samples = known  // Ogg FLAC's STREAMINFO said it
                info.problems.removeAll { $0.kind == "length-unknown" }
            } else if !info.problems.contains(where: { $0.kind == "length-unknown" }) {
                info.problems.append(FormatError("length-unknown", "the Ogg stream's last page was not found"))
            }
            return
        }
        let granule = last.granule
        if !last.isLast {
            info.problems.append(FormatError("damaged", "the Ogg stream has no end-of-stream page (cut short?)"))
        }
        let samples = (codec == .opus ? granule &- Int64(info.encoderDelay) : granule) &- start
        guard granule >= 0, samples >= 0 else {
            info.problems.append(
                FormatError(
                    "damaged", "the Ogg stream's last granule position \(granule) is negative or inside the pre-skip"))
            info.samples = known
            return
        }
        info.samples = samples
        info.problems.removeAll { $0.kind == "length-unknown" }
        let kbps = averageKilobits(bytes: source.size - headersEnd, samples: samples, rate: info.sampleRate)
        if kbps > 0 { info.bitrate = kbps }
    }
}
