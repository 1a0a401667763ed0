/// Reads a WAV file (RIFF/WAVE, and RF64/BW64 for files past 4 GiB): its sample format, where the samples
/// lie for the PCM decoder, its `LIST`/`INFO` tags and where an `id3 ` chunk is, reading only chunk headers
/// and the small chunks, never the samples.
///
/// A `data` size of 0 or 0xFFFFFFFF (what a writer streaming to a pipe leaves) means "to the end of the
/// file"; a size past the end (a cut file) is clamped, with a problem. The sample range is trimmed to whole
/// frames. Called from any thread; it holds no state.
public enum RIFFReader {
    public static func read(_ source: some ByteSource) throws(FormatError) -> AudioFileInfo {
        let head = try source.read(at: 0, count: 12)
        var c = ByteCursor(head)
        guard let magic = c.take(4), let riffSize = c.u32le(), let form = c.take(4) else {
            throw FormatError("not-audio", "not a WAV file (\(source.size) bytes)")
        }
        let kind = chunkID(magic)
        guard ["RIFF", "RF64", "BW64"].contains(kind), chunkID(form) == "WAVE" else {
            throw FormatError("not-audio", "not a WAV file (no RIFF/WAVE header)")
        }
        let sizeIsReal = kind == "RIFF" && riffSize != 0 && riffSize != 0xFFFF_FFFF
        var info = AudioFileInfo(container: .wav, codec: .pcm)
        var walker = ChunkWalker(
            source: source, bigEndian: false, start: 12, end: sizeIsReal ? 8 + Int(riffSize) : source.size)
        var format: WAVFormat?
        var data: Range<Int>?
        var ds64DataSize: UInt64?
        while let chunk = try walker.next() {
            switch chunk.id {
            case "fmt ":
                if format == nil { format = try WAVFormat.parse(source.bytes(in: chunk.data, cap: 256)) }
            case "ds64":
                var d = ByteCursor(try source.bytes(in: chunk.data, cap: 24))
                _ = d.u64le()
                ds64DataSize = d.u64le()
            case "data" where data == nil:
                data = dataRange(chunk, ds64: ds64DataSize, finalized: sizeIsReal, size: source.size, info: &info)
                if data?.upperBound == source.size {
                    walker.stop()
                } else if let data, chunk.declaredSize == 0xFFFF_FFFF {
                    walker.resume(at: data.upperBound)
                }
            case "LIST":
                info.tags += RIFFInfo.tags(try source.bytes(in: chunk.data, cap: RIFFInfo.maxBytes))
            case "id3 ", "ID3 ":
                if info.id3Range == nil, !chunk.data.isEmpty { info.id3Range = chunk.data }
            default:
                break
            }
            if chunk.isCut, chunk.id != "data" {
                info.problems.append(FormatError("damaged", "WAV chunk '\(chunk.id)' runs past the end of the file"))
            }
        }
        guard let format else { throw FormatError("damaged", "WAV file has no fmt chunk") }
        guard let data else { throw FormatError("damaged", "WAV file has no data chunk") }
        if format.blockAlign != format.frameSize {
            info.problems.append(
                FormatError(
                    "damaged",
                    "WAV block align \(format.blockAlign) is not \(format.channels) × \(format.bitsPerSample) bits"))
        }
        let frames = data.count / format.frameSize
        info.dataRange = data.lowerBound..<(data.lowerBound + frames * format.frameSize)
        info.samples = Int64(frames)
        info.sampleRate = format.sampleRate
        info.channels = format.channels
        info.bitsPerSample = format.bitsPerSample
        info.isFloat = format.isFloat
        info.bigEndian = false
        info.bitrate = format.sampleRate * format.frameSize * 8 / 1000
        return info
    }

    /// The sample bytes of a `data` chunk, clamped to the file; a streaming writer's size runs to the end.
    private static func dataRange(
        _ chunk: ChunkWalker.Chunk, ds64: UInt64?, finalized: Bool, size: Int, info: inout AudioFileInfo
    ) -> Range<Int> {
        let toEnd = chunk.dataStart..<max(chunk.dataStart, size)
        if chunk.declaredSize == 0xFFFF_FFFF, let ds64 {
            let end = ds64 > UInt64(size) ? size : chunk.dataStart + Int(ds64)
            return chunk.dataStart..<max(chunk.dataStart, min(end, size))
        }
        // 0 in a file whose RIFF size is right is an empty data chunk; otherwise a writer that never came back.
        if chunk.declaredSize == 0xFFFF_FFFF || (chunk.declaredSize == 0 && !finalized) { return toEnd }
        if chunk.isCut {
            info.problems.append(
                FormatError(
                    "damaged",
                    "WAV data chunk claims \(chunk.declaredSize) bytes, the file holds \(chunk.data.count) (cut short?)"
                ))
        }
        return chunk.data
    }
}
