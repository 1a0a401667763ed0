import AudioFormats
import Glibc

/// Asks the kernel to start reading the parts of a file every index reads, before the scanner gets
/// to it: the first page (the tag header and text frames) and, for the formats whose index reads the
/// end of the file, the pages of its end (an MP3's ID3v1 tag, an Ogg stream's last page; `spans`).
///
/// `posix_fadvise(POSIX_FADV_WILLNEED)` queues the reads and returns without waiting, so a worker
/// that calls this for a file a few places ahead keeps the disk busy while it parses its own file.
/// Only pages the index of a usual file reads anyway: it adds no bytes. So the end is left alone for FLAC, WAV and
/// AIFF (their index reads the front alone, the end only for a rare FLAC without its length or a WAV
/// chunk after the audio) and for MP4, whose `moov` is as often at the front (`+faststart`) as at the
/// end; those files' first reads find it there when they need it. A file that cannot be opened is left
/// alone (its own read reports why).
enum ReadAhead {
    static let page = 4096

    /// The suffixes (lower case) whose index reads the file's end: MP3 (the ID3v1 tag, libmpg123's own
    /// look at it) and Ogg (the stream's last page, for the length).
    static let tailSuffixes: Set<String> = ["mp3", "ogg", "oga", "opus"]

    /// `path` is absolute and NUL-terminated (raw bytes, as the walker gives it).
    static func ends(of path: [UInt8], size: Int) {
        guard size > 0 else { return }
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { return }
        defer { Glibc.close(fd) }
        let (head, tail) = spans(of: path.dropLast(), size: size)
        FileAdvice.willNeed(fd, from: 0, count: head)
        if tail > 0 { FileAdvice.willNeed(fd, from: size - tail, count: tail) }
    }

    /// Whether the index of the file named `name` (raw bytes) reads its end, by its suffix.
    static func readsTail(_ name: some BidirectionalCollection<UInt8>) -> Bool {
        tailSuffixes.contains(FormatCatalog.suffix(of: name))
    }

    /// How many bytes at the front and at the end of a file of `size` bytes named `name` to fetch ahead:
    /// the first page, and the pages of the last 128 bytes where the index reads the end. Of an Ogg file
    /// the first two pages: its index reads the header packets and the first audio page in dependent
    /// reads (each Ogg page found from the one before), and those reach into the second page in a usual
    /// file (a Vorbis setup packet is 3-6 KB; an Opus first audio page a few KB to a second of audio).
    /// Both stay within the file and do not overlap.
    static func spans(of name: some BidirectionalCollection<UInt8>, size: Int) -> (head: Int, tail: Int) {
        let suffix = FormatCatalog.suffix(of: name)
        let head = min(size, suffix == "ogg" || suffix == "oga" || suffix == "opus" ? 2 * page : page)
        guard tailSuffixes.contains(suffix) else { return (head, 0) }
        let start = max(max(0, size - 128) / page * page, (head + page - 1) / page * page)
        return (head, max(0, size - start))
    }
}
