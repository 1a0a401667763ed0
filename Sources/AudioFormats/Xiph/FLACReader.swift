/// Reads a native FLAC file's metadata blocks (after any ID3v2 tags in front, which libFLAC and MPD skip):
/// `STREAMINFO` for the stream's facts and exact length, `VORBIS_COMMENT` for tags, `PICTURE` for where each
/// picture's image bytes lie, every other block skipped by its length. Reads each block header and the
/// blocks it needs by exact range, never a picture's image and never the audio frames.
///
/// A total of 0 samples in `STREAMINFO` means the encoder did not know (a stream): the length is then
/// read from the first and the last frame's headers (`FLACFrames`), and only when those are not found is
/// `samples` nil with a `length-unknown` problem. Called from any thread; it holds no state.
public enum FLACReader {
    /// The most metadata blocks walked (each costs a read); real files have a handful.
    static let maxBlocks = 1024
    /// The most ID3v2 tags skipped in front of `fLaC`.
    static let maxID3Tags = 8

    public static func read(_ source: some ByteSource) throws(FormatError) -> AudioFileInfo {
        var offset = try skipID3v2(source)
        guard try source.read(at: offset, count: 4) == Array("fLaC".utf8) else {
            throw FormatError("not-audio", "not a FLAC file (no fLaC marker)")
        }
        offset += 4
        var info = AudioFileInfo(container: .flac, codec: .flac)
        var ended = false
        var nominalBlock = 0
        for index in 0..<maxBlocks {
            guard let header = FLACMetadata.BlockHeader(try source.read(at: offset, count: 4)) else {
                if index == 0 { throw FormatError("damaged", "FLAC file ends before its STREAMINFO") }
                info.problems.append(FormatError("damaged", "FLAC metadata is cut short after \(index) blocks"))
                ended = true
                break
            }
            let data = offset + 4..<offset + 4 + header.length
            if index == 0, header.type != FLACMetadata.streamInfo {
                throw FormatError("damaged", "FLAC file's first metadata block is not STREAMINFO")
            }
            if data.upperBound > source.size {
                info.problems.append(
                    FormatError("damaged", "FLAC metadata block \(index) runs past the end of the file"))
            }
            switch header.type {
            case FLACMetadata.streamInfo where index == 0:
                let streamInfo = try source.read(at: data.lowerBound, count: 34)
                try FLACMetadata.applyStreamInfo(streamInfo, to: &info)
                if streamInfo.count >= 4 { nominalBlock = Int(streamInfo[2]) << 8 | Int(streamInfo[3]) }
            case FLACMetadata.vorbisComment:
                VorbisComments(try source.read(at: data.lowerBound, count: header.length)[...]).apply(to: &info)
            case FLACMetadata.picture:
                try readPicture(source, block: data, into: &info)
            case 127:
                info.problems.append(FormatError("damaged", "FLAC metadata block \(index) has the invalid type 127"))
                ended = true
            default:
                break
            }
            offset = data.upperBound
            if header.isLast || ended || offset >= source.size {
                ended = true
                break
            }
        }
        if !ended { info.problems.append(FormatError("damaged", "FLAC file has over \(maxBlocks) metadata blocks")) }
        if info.samples == nil, ended,
            let samples = try FLACFrames.length(source, audioStart: offset, nominalBlock: nominalBlock)
        {
            info.samples = samples
            info.problems.removeAll { $0.kind == "length-unknown" }
        }
        info.bitrate = averageKilobits(bytes: source.size - offset, samples: info.samples ?? 0, rate: info.sampleRate)
        return info
    }

    /// Where the `fLaC` marker should be: past the ID3v2 tags in front (header, body and footer), if any.
    static func skipID3v2(_ source: some ByteSource) throws(FormatError) -> Int {
        var offset = 0
        for _ in 0..<maxID3Tags {
            var c = ByteCursor(try source.read(at: offset, count: 10))
            guard let magic = c.take(3), magic.elementsEqual("ID3".utf8), c.skip(2), let flags = c.u8(),
                let size = c.take(4), size.allSatisfy({ $0 < 0x80 })
            else { break }
            let body = size.reduce(0) { $0 << 7 | Int($1) }
            offset += 10 + body + (flags & 0x10 != 0 ? 10 : 0)
        }
        return offset
    }

    /// A `PICTURE` block: its header read (not its image), the image's range in the file recorded.
    static func readPicture(_ source: some ByteSource, block: Range<Int>, into info: inout AudioFileInfo)
        throws(FormatError)
    {
        // The header is a few dozen bytes: read to the end of its page first (the image after it is not
        // read), then as much as it says it needs.
        var bytes = try source.read(
            at: block.lowerBound,
            count: min(block.count, FilePages.countToBoundary(from: block.lowerBound, atLeast: 64)))
        var parsed = FLACPicture.parse(bytes[...])
        if case .failure(.cutShort(nil)) = parsed, bytes.count < min(block.count, 1024) {
            bytes = try source.read(at: block.lowerBound, count: min(block.count, 1024))
            parsed = FLACPicture.parse(bytes[...])
        }
        if case .failure(.cutShort(let needed?)) = parsed, needed > bytes.count, needed <= block.count,
            needed <= FLACPicture.maxHeader
        {
            bytes = try source.read(at: block.lowerBound, count: needed)
            parsed = FLACPicture.parse(bytes[...])
        }
        switch parsed {
        case .success(let picture):
            let start = block.lowerBound + picture.dataStart
            guard picture.dataLength <= block.upperBound - start, start + picture.dataLength <= source.size else {
                info.problems.append(FormatError("damaged", "FLAC picture's image runs past its block or the file"))
                return
            }
            info.pictures.append(
                Picture(location: .range(start..<start + picture.dataLength), mime: picture.mime, type: picture.type))
        case .failure(.cutShort):
            info.problems.append(FormatError("damaged", "FLAC picture block is cut short"))
        case .failure(.damaged(let reason)):
            info.problems.append(FormatError("damaged", "FLAC \(reason)"))
        }
    }
}
