/// Reads an AIFF or AIFF-C file: its sample format and byte order, where the samples lie (`SSND`, its
/// offset field honoured) for the PCM decoder, its `NAME`/`AUTH`/`ANNO`/`(c) ` text and where an `ID3 `
/// chunk is, reading only chunk headers and the small chunks, never the samples.
///
/// AIFF and AIFF-C `NONE`/`twos`/`in24`/`in32` are big-endian integers, `sowt` little-endian, `fl32`/`fl64`
/// big-endian floats; any other compression is `unsupported`. The frame count comes from `COMM`; a `SSND`
/// holding fewer frames (a cut file) lowers it, with a problem. Called from any thread; it holds no state.
public enum AIFFReader {
    static let textKeys: [String: TagKey] = [
        "NAME": .title, "AUTH": .artist, "ANNO": .comment, "(c) ": .other("COPYRIGHT"),
    ]

    public static func read(_ source: some ByteSource) throws(FormatError) -> AudioFileInfo {
        let head = try source.read(at: 0, count: 12)
        var c = ByteCursor(head)
        guard let magic = c.take(4), let formSize = c.u32be(), let form = c.take(4), chunkID(magic) == "FORM",
            ["AIFF", "AIFC"].contains(chunkID(form))
        else { throw FormatError("not-audio", "not an AIFF file (no FORM/AIFF header)") }
        let isAIFC = chunkID(form) == "AIFC"
        var info = AudioFileInfo(container: .aiff, codec: .pcm)
        var walker = ChunkWalker(source: source, bigEndian: true, start: 12, end: 8 + Int(formSize))
        if 8 + Int(formSize) > source.size {
            // A writer streaming to a pipe leaves the FORM size unset: walk to the end of the file.
            walker = ChunkWalker(source: source, bigEndian: true, start: 12, end: source.size)
        }
        var common: AIFFCommon?
        var sound: Range<Int>?
        while let chunk = try walker.next() {
            switch chunk.id {
            case "COMM" where common == nil:
                common = try AIFFCommon.parse(source.bytes(in: chunk.data, cap: 256), isAIFC: isAIFC)
            case "SSND" where sound == nil:
                var s = ByteCursor(try source.bytes(in: chunk.data, cap: 8))
                guard let offset = s.u32be() else { throw FormatError("damaged", "AIFF SSND chunk is too short") }
                let start = min(chunk.dataStart + 8 + Int(offset), chunk.data.upperBound)
                sound = start..<chunk.data.upperBound
                if chunk.declaredSize == 0 || chunk.declaredSize == 0xFFFF_FFFF {
                    sound = start..<max(start, source.size)  // a streaming writer's: the samples run to the end
                    walker.stop()
                }
            case let id where textKeys[id] != nil:
                let text = LegacyText.decode(try source.bytes(in: chunk.data, cap: 64 << 10))
                if let key = textKeys[id], !text.isEmpty { info.tags.append(Tag(key, text)) }
            case "ID3 ", "id3 ":
                if info.id3Range == nil, !chunk.data.isEmpty { info.id3Range = chunk.data }
            default:
                break
            }
            if chunk.isCut, chunk.id != "SSND" || chunk.declaredSize != 0 && chunk.declaredSize != 0xFFFF_FFFF {
                info.problems.append(FormatError("damaged", "AIFF chunk '\(chunk.id)' runs past the end of the file"))
            }
        }
        guard let common else { throw FormatError("damaged", "AIFF file has no COMM chunk") }
        let frameSize = common.frameSize
        var frames = common.frames
        if let sound {
            let held = sound.count / frameSize
            if held < frames {
                info.problems.append(
                    FormatError("damaged", "AIFF COMM says \(frames) frames, SSND holds \(held) (cut short?)"))
                frames = held
            }
            info.dataRange = sound.lowerBound..<(sound.lowerBound + frames * frameSize)
        } else if frames > 0 {
            throw FormatError("damaged", "AIFF file has no SSND chunk")
        } else {
            info.dataRange = 12..<12
        }
        info.samples = Int64(frames)
        info.sampleRate = common.sampleRate
        info.channels = common.channels
        info.bitsPerSample = common.bitsPerSample
        info.isFloat = common.isFloat
        info.bigEndian = common.bigEndian
        info.bitrate = common.sampleRate * frameSize * 8 / 1000
        return info
    }
}
