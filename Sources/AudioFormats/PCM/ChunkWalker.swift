/// Walks the chunks of an IFF-style container (RIFF's little-endian sizes, AIFF's big-endian ones) through
/// a `ByteSource`, reading only each chunk's 8-byte header, so a file of any size costs a few small reads.
///
/// A chunk is a four-letter id, a 32-bit size and its data, padded to an even length. The walk stops at
/// the end of the container (or the file, when the container's size lies), at a header cut short, and
/// after `maxChunks` chunks (each costs a read: a file of millions of empty chunks must not cost millions).
struct ChunkWalker {
    /// One chunk: its id and where its data lies in the file (`declaredSize` as written, the range
    /// clamped to the file).
    struct Chunk {
        var id: String
        var declaredSize: UInt32
        var dataStart: Int
        /// The declared data's range clamped to the file.
        var data: Range<Int>
        /// The data's end as declared (may lie past the file).
        var declaredEnd: Int { dataStart + Int(declaredSize) }
        var isCut: Bool { data.upperBound < declaredEnd }
    }

    static let maxChunks = 4096

    let source: any ByteSource
    let bigEndian: Bool
    /// Where the next chunk header is.
    private(set) var offset: Int
    /// The end of the container: its declared end clamped to the file.
    let end: Int
    private(set) var count = 0

    init(source: any ByteSource, bigEndian: Bool, start: Int, end: Int) {
        self.source = source
        self.bigEndian = bigEndian
        offset = start
        self.end = min(end, source.size)
    }

    /// The next chunk, or nil at the end (including a header cut short or too many chunks).
    mutating func next() throws(FormatError) -> Chunk? {
        guard count < Self.maxChunks, offset + 8 <= end else { return nil }
        let header = try source.read(at: offset, count: 8)
        var c = ByteCursor(header)
        guard let id = c.take(4), let size = bigEndian ? c.u32be() : c.u32le() else { return nil }
        count += 1
        let dataStart = offset + 8
        let declaredEnd = dataStart + Int(size)
        let chunk = Chunk(
            id: chunkID(id), declaredSize: size, dataStart: dataStart,
            data: dataStart..<max(dataStart, min(declaredEnd, source.size)))
        offset = declaredEnd + Int(size & 1)
        return chunk
    }

    /// Makes the next call return nil (a chunk that runs to the end of the file ends the walk).
    mutating func stop() { offset = Int.max - 8 }

    /// Goes on at `next` (padded to even) instead: after a chunk whose real size was given elsewhere (RF64's `ds64`).
    mutating func resume(at next: Int) { offset = next + (next & 1) }
}

/// Four bytes as a chunk id: printable ASCII kept, anything else as `?`, so ids compare as text.
func chunkID(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
}

extension ByteSource {
    /// The bytes of `range` (clamped to the file), at most `cap` of them: a chunk claiming gigabytes of
    /// text costs no more than the cap.
    func bytes(in range: Range<Int>, cap: Int) throws(FormatError) -> [UInt8] {
        guard !range.isEmpty else { return [] }
        return try read(at: range.lowerBound, count: min(range.count, cap))
    }
}
