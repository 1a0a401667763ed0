/// Finds the last page of one logical Ogg stream by searching backwards from the end of the file, as
/// libvorbisfile and opusfile do for a stream's length: its granule position is the stream's last sample,
/// and a last page not marked end-of-stream tells of a file cut short.
///
/// It reads the file's last 4 KiB page (from the last page boundary: the last Ogg page of a real file is a
/// few KiB, and its header is often there), then the tail before it a page at a time to 64 KiB from the
/// end and in 64 KiB chunks past that, each ending on a page boundary, only when no page with a granule
/// is found there, newest first; checks each
/// `OggS` from the back (a page header that parses, a matching checksum, the stream's serial, a granule
/// position set; a page running past the chunk is read on its own) and stops at the first that passes, at
/// `limit` bytes from the end, or at `floor` (the end of the header pages).
enum OggTail {
    /// The fewest bytes the first chunk holds: a page header with a few segments.
    static let minimumFirst = 64
    static let chunk = 64 << 10
    /// How far back to look: a chained file's first stream may end far from the end, and is then not found.
    static let limit = 1 << 20
    /// The most candidate pages checked (each may cost a read of its own).
    static let maxCandidates = 256

    /// The stream's last page with a granule position, or nil when none is found.
    static func lastPage(_ source: some ByteSource, serial: UInt32, floor: Int, verifyChecksums: Bool = true)
        throws(FormatError) -> OggPage?
    {
        var end = source.size
        var candidates = 0
        let stop = max(floor, source.size - limit)
        // The first chunk is the file's last 4 KiB page (what is past its last boundary), or the last two
        // when that holds too little for a page header; each chunk after ends where the one before began,
        // a page long within the last `chunk` bytes (where a real last page starts: a longer step would
        // read pages before it), `chunk` long past them.
        var size = source.size - (source.size - 1) / FilePages.size * FilePages.size
        if size < minimumFirst { size += FilePages.size }
        while end > stop {
            let start = max(stop, end - size)
            size = source.size - start < chunk ? FilePages.size : chunk
            // Three bytes more than the chunk, so an `OggS` across its end is seen once.
            let bytes = try source.read(at: start, count: min(end + 3, source.size) - start)
            var i = bytes.count - 4
            while i >= 0 {
                if bytes[i] == 0x4F, bytes[i + 1] == 0x67, bytes[i + 2] == 0x67, bytes[i + 3] == 0x53, start + i < end {
                    candidates += 1
                    if candidates > maxCandidates { return nil }
                    let page = try pageOfStream(
                        source, at: start + i, in: bytes, chunkStart: start, serial: serial, verify: verifyChecksums)
                    if let page { return page }
                }
                i -= 1
            }
            end = start
        }
        return nil
    }

    /// The page at `offset` when it is a good page of the stream with a granule set.
    private static func pageOfStream(
        _ source: some ByteSource, at offset: Int, in chunk: [UInt8], chunkStart: Int, serial: UInt32, verify: Bool
    ) throws(FormatError) -> OggPage? {
        let local = offset - chunkStart
        // The chunk usually holds the whole page; one across its end is read on its own.
        var parsed = OggPage(chunk[local...])
        if parsed == nil { parsed = OggPage(try source.read(at: offset, count: OggPage.fixedHeader + 255)[...]) }
        guard let page = parsed, page.serial == serial, page.granule != -1 else { return nil }
        let bytes =
            chunk.count - local >= page.length
            ? chunk[local..<local + page.length] : try source.read(at: offset, count: page.length)[...]
        guard bytes.count == page.length else { return nil }  // cut short by the end of the file
        return !verify || page.checksumMatches(bytes) ? page : nil
    }
}
