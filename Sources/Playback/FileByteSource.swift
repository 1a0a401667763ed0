import AudioFormats
import Foundation

/// An open file read by position (`pread`), as the project's format readers read (`ByteSource`) and as
/// the PCM decoder reads its samples.
///
/// `init` opens the file, `deinit` closes it. Thread rules: one thread at a time; not `Sendable`.
final class FileByteSource: ByteSource {
    private let fd: Int32
    let size: Int

    /// Opens the file named by `path` (raw bytes) for reading.
    init(path: [UInt8]) throws(PlaybackError) {
        fd = (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            throw PlaybackError(
                "cannot open \(String(decoding: path, as: UTF8.self)): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        size = fstat(fd, &st) == 0 ? Int(st.st_size) : 0
    }

    deinit { close(fd) }

    func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
        guard offset >= 0, count > 0, offset < size else { return [] }
        var bytes = [UInt8](repeating: 0, count: min(count, size - offset))
        var n = 0
        var failure: FormatError?
        bytes.withUnsafeMutableBytes { b in
            do throws(FormatError) { n = try read(into: b, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
        return Array(bytes.prefix(n))
    }

    /// Fills `buffer` from `offset` (`pread`, retried on EINTR and short reads); returns the bytes read,
    /// fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FormatError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw FormatError("io", "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}
