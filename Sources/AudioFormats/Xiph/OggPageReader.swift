/// Reads Ogg pages forward from the front of a file, each read ending at a 4 KiB boundary (a page past
/// it is read whole from its start, to the boundary after its end), as libogg's `ogg_sync_pageseek`
/// finds them: a page must start with the capture pattern and carry a matching checksum; anything else
/// (junk, a damaged page) is skipped by searching for the next `OggS`.
///
/// It stops at the end of the file, at a page cut short by it, and after `budget` bytes (the header
/// packets of a hostile file could otherwise be searched for through gigabytes).
struct OggPageReader {
    let source: any ByteSource
    /// Where the next page is looked for.
    private(set) var offset = 0
    /// Pages passed over because their checksum was wrong, and bytes skipped that were no page.
    private(set) var badPages = 0
    private(set) var junkBytes = 0
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var budget: Int
    let verifyChecksums: Bool

    init(source: any ByteSource, budget: Int, verifyChecksums: Bool = true) {
        self.source = source
        self.budget = budget
        self.verifyChecksums = verifyChecksums
    }

    /// The next good page, its bytes (header and body) and where it starts; nil at the end.
    mutating func next() throws(FormatError) -> (page: OggPage, bytes: ArraySlice<UInt8>, offset: Int)? {
        while true {
            guard try fill(offset, count: OggPage.fixedHeader + 255) else { return nil }
            let here = buffer[(offset - bufferStart)...]
            guard here.starts(with: OggPage.capture) else {
                try resync()
                continue
            }
            // Not a version-0 header, or a page claiming more than the file holds: a false capture pattern
            // (or a damaged page), searched past as libogg does.
            guard let page = OggPage(here), try fill(offset, count: page.length),
                buffer.count - (offset - bufferStart) >= page.length
            else {
                try resync()
                continue
            }
            let start = offset - bufferStart
            let bytes = buffer[start..<start + page.length]
            budget -= page.length  // checksumming costs as much as reading: a file of false pages is bounded too
            guard budget > 0 else { return nil }
            guard !verifyChecksums || page.checksumMatches(bytes) else {
                badPages += 1
                try resync()
                continue
            }
            let found = offset
            offset += page.length
            return (page, bytes, found)
        }
    }

    /// Moves to the next `OggS` after the current offset (or the end of what was read, less three bytes,
    /// when there is none in it).
    private mutating func resync() throws(FormatError) {
        let from = offset + 1 - bufferStart
        var next = buffer.count - 3
        if from < buffer.count - 3 {
            for i in from..<(buffer.count - 3)
            where buffer[i] == 0x4F && buffer[i + 1] == 0x67 && buffer[i + 2] == 0x67
                && buffer[i + 3] == 0x53
            {
                next = i
                break
            }
        }
        let target = max(bufferStart + next, offset + 1)
        junkBytes += target - offset
        offset = target
    }

    /// Makes `count` bytes from `at` available in the buffer (fewer only at the end of the file); false when
    /// there is nothing there or the budget is spent.
    private mutating func fill(_ at: Int, count: Int) throws(FormatError) -> Bool {
        guard at < source.size else { return false }
        if at >= bufferStart, at + count <= bufferStart + buffer.count { return true }
        if at >= bufferStart, bufferStart + buffer.count == source.size, at < source.size { return true }
        // To the end of the page the bytes asked for end in: the header pages of a file are often a page
        // or two, and a fixed window past them would bring in audio the index never reads.
        let length = FilePages.countToBoundary(from: at, atLeast: count)
        guard budget > 0 else { return false }
        buffer = try source.read(at: at, count: length)
        bufferStart = at
        budget -= buffer.count
        return !buffer.isEmpty
    }
}
