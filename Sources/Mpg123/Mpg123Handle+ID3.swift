import CMpg123

/// One ID3v2 text-like frame as libmpg123 stores it (`mpg123_text`), copied out of the handle.
public struct ID3Frame: Hashable, Sendable {
    /// Frame id as libmpg123 reports it (v2.2 ids promoted: TT2 → TIT2).
    public var id: String
    /// Language code (COMM, USLT), empty for text frames.
    public var language: String
    /// Description bytes, UTF-8 as libmpg123 converted them (TXXX/COMM description).
    public var description: [UInt8]
    /// Value bytes, converted to UTF-8 by libmpg123; ID3v2.4 multi-values stay NUL-separated.
    public var text: [UInt8]
}

/// The ID3v2 tag of the open stream (`mpg123_id3v2`), copied so it outlives the next read.
public struct ID3v2Tag: Hashable, Sendable {
    /// Major version: 2, 3 or 4.
    public var version: Int
    /// T-frames (except TXXX) and USLT, in file order.
    public var texts: [ID3Frame]
    /// TXXX frames.
    public var extras: [ID3Frame]
    /// COMM frames.
    public var comments: [ID3Frame]
}

/// The raw 128-byte ID3v1 tag (`mpg123_id3v1`); fields are neither terminated nor converted.
public struct ID3v1Tag: Hashable, Sendable {
    public var bytes: [UInt8]
    public var title: ArraySlice<UInt8> { bytes[3..<33] }
    public var artist: ArraySlice<UInt8> { bytes[33..<63] }
    public var album: ArraySlice<UInt8> { bytes[63..<93] }
    public var year: ArraySlice<UInt8> { bytes[93..<97] }
    public var comment: ArraySlice<UInt8> { bytes[97..<127] }
    public var genre: UInt8 { bytes[127] }
    /// ID3v1.1 track number: `comment[28] == 0` and `comment[29] != 0`.
    public var track: Int? { bytes[125] == 0 && bytes[126] != 0 ? Int(bytes[126]) : nil }
}

extension Mpg123Handle {
    /// Which metadata libmpg123 has found so far (`mpg123_meta_check`): `MPG123_ID3`, `MPG123_NEW_ID3`.
    public var metaFlags: Int32 { mpg123_meta_check(mh) }

    /// Copies the ID3v1 and ID3v2 tags of the open stream (`mpg123_id3`). Call after `format()`.
    public func id3Tags() -> (v1: ID3v1Tag?, v2: ID3v2Tag?) {
        var v1p: UnsafeMutablePointer<mpg123_id3v1>?
        var v2p: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_id3(mh, &v1p, &v2p) == MPG123_OK.rawValue else { return (nil, nil) }
        var v1: ID3v1Tag?
        if let v1p {
            let bytes = withUnsafeBytes(of: v1p.pointee) { Array($0.prefix(128)) }
            if bytes.starts(with: [0x54, 0x41, 0x47]) { v1 = ID3v1Tag(bytes: bytes) }
        }
        var v2: ID3v2Tag?
        if let v2p, v2p.pointee.version != 0 {
            let t = v2p.pointee
            v2 = ID3v2Tag(
                version: Int(t.version),
                texts: Self.frames(t.text, t.texts),
                extras: Self.frames(t.extra, t.extras),
                comments: Self.frames(t.comment_list, t.comments))
        }
        return (v1, v2)
    }

    private static func frames(_ base: UnsafeMutablePointer<mpg123_text>?, _ count: Int) -> [ID3Frame] {
        guard let base, count > 0 else { return [] }
        return (0..<count).map { i in
            let f = base[i]
            let id = withUnsafeBytes(of: f.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let lang = withUnsafeBytes(of: f.lang) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return ID3Frame(id: id, language: lang, description: bytes(f.description), text: bytes(f.text))
        }
    }

    /// The bytes of an `mpg123_string` without its closing NULs (`fill` counts them; libmpg123 may end
    /// converted text with more than one).
    private static func bytes(_ s: mpg123_string) -> [UInt8] {
        guard let p = s.p, s.fill > 0 else { return [] }
        var b = p.withMemoryRebound(to: UInt8.self, capacity: s.fill) { Array(UnsafeBufferPointer(start: $0, count: s.fill)) }
        while b.last == 0 { b.removeLast() }
        return b
    }
}
