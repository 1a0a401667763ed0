/// Reads an MP4 file's `moov` for the index without its cover images: the bytes of each `covr` image
/// (often most of a tagged file's `moov`) are left as zeros in the buffer, at their place, so every offset
/// in it is still the file's and the reader records each image as a range of the file, read on demand
/// when the artwork is served. The first bytes of each image are read (a `covr` of implicit type is told
/// by them).
///
/// The way to the images is walked by atom headers: `moov`'s children, a `udta`'s, a `meta`'s (ISO's
/// full box or QuickTime's plain one), an `ilst`'s and a `covr`'s `data` atoms; everything else is read
/// as it lies, in as few reads as the holes leave. A header that lies ends the walk of its level, and the
/// bytes are then read whole, for the parser to report as before. Pure: any thread.
enum MP4MoovRead {
    /// The most atom headers read on the way (each may cost a block read); past it the rest is read whole.
    static let maxHeaders = 512
    /// The bytes kept at the start of each image.
    static let kept = 16

    private enum Level { case moov, udta, meta, ilst, covr }

    /// The bytes of `moov` (its payload's range in the file), the cover images' bytes zeros; cut short
    /// by the end of the file as a plain read would be.
    static func read(_ source: some ByteSource, moov: Range<Int>) throws(FormatError) -> [UInt8] {
        let end = min(moov.upperBound, max(moov.lowerBound, source.size))
        var reader = Reader(base: moov.lowerBound, buffer: [UInt8](repeating: 0, count: end - moov.lowerBound))
        var holes: [Range<Int>] = []
        try walk(source, moov.lowerBound..<end, level: .moov, holes: &holes, reader: &reader)
        // What the walk did not read, less the images: read in as few pieces as the holes leave.
        var at = moov.lowerBound
        for gap in (reader.have + holes).sorted(by: { $0.lowerBound < $1.lowerBound }) + [end..<end] {
            if gap.lowerBound > at {
                guard try reader.fill(source, at..<gap.lowerBound) else {
                    // The file changed under the read: what was read, as a plain read of a cut file gives.
                    return Array(reader.buffer[..<(at - moov.lowerBound)])
                }
            }
            at = max(at, gap.upperBound)
        }
        return reader.buffer
    }

    /// The buffer the walk reads into: atom headers are read in blocks to the end of their 4 KiB page, so
    /// the headers of small neighbours (an `ilst`'s items) cost one read, what a block holds is not read
    /// again, and an image's bytes past the page of its header are never read.
    private struct Reader {
        let base: Int
        var buffer: [UInt8]
        /// The file ranges already in `buffer`.
        var have: [Range<Int>] = []
        var headers = 0

        /// Reads `range` of the file into its place; false when the file ended before it.
        mutating func fill(_ source: some ByteSource, _ range: Range<Int>) throws(FormatError) -> Bool {
            let bytes = try source.read(at: range.lowerBound, count: range.count)
            guard bytes.count == range.count else { return false }
            buffer.replaceSubrange((range.lowerBound - base)..<(range.upperBound - base), with: bytes)
            have.append(range)
            return true
        }

        /// Up to `count` bytes at `offset` (within `limit`), from a block read for them when not yet read.
        mutating func bytes(_ source: some ByteSource, at offset: Int, count: Int, limit: Int) throws(FormatError)
            -> ArraySlice<UInt8>
        {
            let wanted = offset..<min(offset + count, limit)
            headers += 1
            if !have.contains(where: { $0.contains(wanted.lowerBound) && $0.upperBound >= wanted.upperBound }) {
                let end = offset + FilePages.countToBoundary(from: offset, atLeast: count)
                let block = offset..<min(end, base + buffer.count)
                guard try fill(source, block) else { return [] }
            }
            return buffer[(wanted.lowerBound - base)..<(wanted.upperBound - base)]
        }
    }

    /// Walks the children of the container whose payload is `range`, adding each image's bytes to `holes`.
    private static func walk(
        _ source: some ByteSource, _ range: Range<Int>, level: Level, holes: inout [Range<Int>], reader: inout Reader
    ) throws(FormatError) {
        var offset = range.lowerBound
        if level == .meta {
            // ISO's `meta` has a version and flags before its children; QuickTime's starts with `hdlr`.
            let first = try reader.bytes(source, at: offset, count: 8, limit: range.upperBound)
            guard first.count == 8 else { return }
            if !first.dropFirst(4).elementsEqual("hdlr".utf8) { offset += 4 }
        }
        while range.upperBound - offset >= 8 {
            guard reader.headers < maxHeaders else { return }
            var c = ByteCursor(try reader.bytes(source, at: offset, count: 16, limit: range.upperBound))
            guard let size32 = c.u32be(), let type = c.u32be().map(FourCC.init(rawValue:)) else { return }
            var size = Int(size32)
            if size32 == 1 {
                guard let large = c.u64be(), large <= UInt64(range.upperBound - offset) else { return }
                size = Int(large)
            } else if size32 == 0 {
                size = range.upperBound - offset
            }
            let header = size32 == 1 ? 16 : 8
            guard size >= header, size <= range.upperBound - offset else { return }
            let payload = offset + header..<offset + size
            switch (level, type) {
            case (.moov, "udta"): try walk(source, payload, level: .udta, holes: &holes, reader: &reader)
            case (.moov, "meta"), (.udta, "meta"):
                try walk(source, payload, level: .meta, holes: &holes, reader: &reader)
            case (.meta, "ilst"): try walk(source, payload, level: .ilst, holes: &holes, reader: &reader)
            case (.ilst, "covr"): try walk(source, payload, level: .covr, holes: &holes, reader: &reader)
            case (.covr, "data"):
                // The type indicator and the locale (8 bytes), then the image: all but its first bytes skipped.
                let image = payload.lowerBound + 8 + kept
                if image < payload.upperBound { holes.append(image..<payload.upperBound) }
            default: break
            }
            offset += size
        }
    }
}
