import Glibc

/// Positioned reads from an open file (`pread`), with the file's first bytes kept in memory.
///
/// Thread rules: one scanner thread owns a reader; it is not shared.
struct FileReader {
    let fd: Int32
    let size: Int
    /// The first `min(size, prefixSize)` bytes.
    private(set) var prefix: [UInt8]

    /// One page: the tag header and, usually, the text frames; the artwork after them is not read.
    static let prefixSize = 4096

    init(fd: Int32, size: Int) throws(ScanError) {
        self.fd = fd
        self.size = size
        prefix = []
        prefix = try read(at: 0, count: min(size, Self.prefixSize))
    }

    /// Reads up to `count` bytes at `offset`; fewer only at end of file.
    func read(at offset: Int, count: Int) throws(ScanError) -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let n = min(count, size - offset)
        if offset + n <= prefix.count { return Array(prefix[offset..<offset + n]) }
        var out = [UInt8](repeating: 0, count: n)
        var done = 0
        while done < n {
            let r = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, n - done, off_t(offset + done)) }
            if r < 0 {
                if errno == EINTR { continue }
                throw ScanError.io("read failed: \(String(cString: strerror(errno)))")
            }
            if r == 0 { break }  // the file shrank under us
            done += r
        }
        if done < n { out.removeLast(n - done) }
        return out
    }
}

/// Why a file could not be indexed.
enum ScanError: Error, Equatable {
    case io(String)
}
