import CMpg123

/// How the scanner hands a file to libmpg123 (`open(_:)`): the cold-read path of issue 23.
public struct Mpg123Source {
    /// An open file; the caller keeps owning it.
    public var fd: Int32
    /// The file's size in bytes.
    public var size: Int64
    /// Where the stream libmpg123 sees begins (after a tag that claims more bytes than the file has).
    public var start: Int64
    /// File ranges libmpg123 will not look into, read as zeros without touching the disk: APIC picture
    /// payloads, which libmpg123 skips by the frame's size when the handle lacks `.picture`. Sorted,
    /// disjoint; at most `Mpg123Source.maximumSkips` are used (the rest are read).
    public var skipped: [Range<Int64>]
    /// From this offset on, reads go through a 256 KiB buffer, one `pread` per refill (files whose
    /// every frame is read: `scan()`, or decoding a truncated file); before it, and when nil, every
    /// read is an exact `pread` of what libmpg123 asks for.
    public var bufferedFrom: Int64?

    public static let maximumSkips = Int(CW_MPG123_HOLES)

    public init(fd: Int32, size: Int64, start: Int64 = 0, skipped: [Range<Int64>] = [], bufferedFrom: Int64? = nil) {
        self.fd = fd
        self.size = size
        self.start = start
        self.skipped = skipped
        self.bufferedFrom = bufferedFrom
    }
}

extension Mpg123Handle {
    /// The buffer of `Mpg123Source.bufferedFrom` reads.
    static let sourceBufferSize = 256 * 1024

    /// Opens `source` (`mpg123_replace_reader_handle` with `cw_mpg123_source_read`/`_lseek`, then
    /// `mpg123_open_handle`): libmpg123 sees the file from `source.start` to its end, with the skipped
    /// ranges as zeros. The caller keeps `source.fd` open until `closeStream()` or the next open.
    public func open(_ source: Mpg123Source) throws(Mpg123Error) {
        precondition(source.skipped.isEmpty || !flags.contains(.picture), "skipped ranges hide APIC payloads")
        closeStream()
        var s = cw_mpg123_source()
        s.fd = source.fd
        s.base = source.start
        s.size = source.size
        s.stream_from = source.bufferedFrom ?? Int64.max
        var previousEnd = Int64.min
        withUnsafeMutablePointer(to: &s.hole_start) { starts in
            withUnsafeMutablePointer(to: &s.hole_end) { ends in
                let startList = UnsafeMutableRawPointer(starts).assumingMemoryBound(to: Int64.self)
                let endList = UnsafeMutableRawPointer(ends).assumingMemoryBound(to: Int64.self)
                var n = 0
                for range in source.skipped where n < Mpg123Source.maximumSkips && !range.isEmpty {
                    precondition(range.lowerBound >= previousEnd, "skipped ranges must be sorted and disjoint")
                    startList[n] = range.lowerBound
                    endList[n] = range.upperBound
                    previousEnd = range.upperBound
                    n += 1
                }
                s.holes = Int32(n)
            }
        }
        if source.bufferedFrom != nil {
            s.buffer = sourceBuffer()
            s.capacity = Int64(Self.sourceBufferSize)
        }
        s.buffer_at = 0
        s.buffer_fill = 0
        sourceState.pointee = s
        try Mpg123Error.check(cw_mpg123_open_source(mh, sourceState), "mpg123_open_handle", handle: mh)
        markOpenedWithReplacedReader()
    }
}
