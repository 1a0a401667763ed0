import Glibc

/// Tells the kernel how the scanner will read a file (`posix_fadvise`), so the page cache's read-ahead
/// brings in what the index needs and nothing else: on an SD card every skipped page is time.
///
/// Glibc exports `posix_fadvise` and the `POSIX_FADV_*` constants to Swift on Linux (checked on
/// x86_64; on 32-bit ARM without `_FILE_OFFSET_BITS=64` its offsets are 32-bit, so they are clamped:
/// an MP3 past 2 GiB only loses the advice). Advice is a hint: a failure changes no result, so the
/// return code is ignored.
enum FileAdvice {
    /// No read-ahead for `fd`: each read brings in only the pages it touches (tag and header phase).
    static func random(_ fd: Int32) {
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)
    }

    /// Larger read-ahead for `fd`: the file is about to be read from start to end.
    static func sequential(_ fd: Int32) {
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    /// Starts reading `count` bytes at `offset` into the page cache now, without waiting for them.
    static func willNeed(_ fd: Int32, from offset: Int, count: Int) {
        guard count > 0 else { return }
        _ = posix_fadvise(fd, off_t(clamping: offset), off_t(clamping: count), POSIX_FADV_WILLNEED)
    }
}
