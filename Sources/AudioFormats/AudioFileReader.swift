/// Reads any file of the formats the project's own parsers know (everything ClickWheel plays but MP3,
/// which the library reads through libmpg123), choosing the reader by the file's first bytes.
public enum AudioFileReader {
    /// The container a file's first bytes announce, nil when none of ours (MP3 among them).
    public static func container(ofPrefix p: [UInt8]) -> AudioFileInfo.Container? {
        func has(_ s: String, at offset: Int = 0) -> Bool {
            let b = Array(s.utf8)
            return p.count >= offset + b.count && Array(p[offset..<offset + b.count]) == b
        }
        if has("fLaC") { return .flac }
        if has("OggS") { return .ogg }
        if has("ftyp", at: 4) { return .mp4 }
        if (has("RIFF") || has("RF64") || has("BW64")) && has("WAVE", at: 8) { return .wav }
        if has("FORM") && (has("AIFF", at: 8) || has("AIFC", at: 8)) { return .aiff }
        if has("ID3"), p.count >= 10 {
            // An ID3v2 tag in front of FLAC (some taggers write one): FLACReader looks past it.
            let size = p[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10
            if p.count >= size + 4, Array(p[size..<size + 4]) == Array("fLaC".utf8) { return .flac }
        }
        return nil
    }

    /// Reads `source` with the reader of its container; `FormatError` "not-audio" when it is none of ours.
    public static func read(_ source: some ByteSource) throws(FormatError) -> AudioFileInfo {
        let prefix = try source.read(at: 0, count: 64)
        if prefix.starts(with: Array("ID3".utf8)), prefix.count >= 10 {
            // A tag longer than the prefix: look for FLAC's marker right after it.
            let size = prefix[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10
            if try source.read(at: size, count: 4) == Array("fLaC".utf8) { return try FLACReader.read(source) }
        }
        switch container(ofPrefix: prefix) {
        case .flac: return try FLACReader.read(source)
        case .ogg: return try OggReader.read(source)
        case .mp4: return try MP4Reader.read(source)
        case .wav: return try RIFFReader.read(source)
        case .aiff: return try AIFFReader.read(source)
        case nil: throw FormatError("not-audio", "not FLAC, Ogg, MP4, WAV or AIFF (its first bytes are none of them)")
        }
    }
}
