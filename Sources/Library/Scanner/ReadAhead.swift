import Glibc

/// Asks the kernel to start reading the parts of a file every index reads, before the scanner gets
/// to it: the first page (the tag header and text frames) and the pages of the last 128 bytes (ID3v1).
///
/// `posix_fadvise(POSIX_FADV_WILLNEED)` queues the reads and returns without waiting, so a worker
/// that calls this for a file a few places ahead keeps the disk busy while it parses its own file.
/// Only pages the index reads anyway: it adds no bytes. A file that cannot be opened is left alone
/// (its own read reports why).
enum ReadAhead {
    static let page = 4096

    /// `path` is absolute and NUL-terminated (raw bytes, as the walker gives it).
    static func ends(of path: [UInt8], size: Int) {
        guard size > 0 else { return }
        let fd = path.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { return }
        defer { Glibc.close(fd) }
        FileAdvice.willNeed(fd, from: 0, count: min(size, page))
        let tail = max(0, size - 128) / page * page
        if tail >= page { FileAdvice.willNeed(fd, from: tail, count: size - tail) }
    }
}
