/// A RIFF `LIST`/`INFO` chunk's text fields as tags: `INAM` title, `IART` artist, `IPRD` album and so on
/// (the ids TagLib and foobar2000 read and write), anything else as `.other(id)`.
enum RIFFInfo {
    /// The most of a `LIST` chunk read: INFO text is short, a chunk claiming more is read only this far.
    static let maxBytes = 1 << 20

    static let keys: [String: TagKey] = [
        "INAM": .title, "IART": .artist, "IPRD": .album, "IGNR": .genre, "ICMT": .comment, "ICRD": .date,
        "ITRK": .trackNumber, "IPRT": .trackNumber, "IMUS": .composer, "ICOM": .composer, "IBPM": .bpm,
    ]

    /// The tags of a `LIST` chunk's data (starting with its list type); none unless the type is `INFO`.
    static func tags(_ data: [UInt8]) -> [Tag] {
        var c = ByteCursor(data)
        guard let type = c.take(4), chunkID(type) == "INFO" else { return [] }
        var tags: [Tag] = []
        while let id = c.take(4), let size = c.u32le() {
            // A field cut short by the end of the chunk (or the read cap) keeps what is there.
            let text = c.take(min(Int(size), c.remaining)) ?? []
            if size & 1 == 1 { c.skip(1) }
            let value = LegacyText.decode(text)
            guard !value.isEmpty else { continue }
            let name = chunkID(id)
            tags.append(Tag(keys[name] ?? .other(name), value))
        }
        return tags
    }
}
