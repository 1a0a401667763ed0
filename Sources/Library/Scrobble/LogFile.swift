import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The scrobble log file, opened for appending (created with its folder when missing): POSIX calls,
/// because the log needs fsync of the file and of its folder, and truncation, which FileHandle does not
/// promise on Linux. One instance per flush step; `deinit` closes it.
///
/// Thread rules: the scrobble log's queue only.
final class LogFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private let path: String

    init(appendingTo path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.failure("open") }
    }

    deinit { close(fd) }

    /// The file's size (`fstat`).
    func size() throws -> Int64 {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Self.failure("fstat") }
        return Int64(st.st_size)
    }

    /// Appends all of `bytes` (`write`, again after a short write or EINTR).
    func append(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure("write")
            }
            done += n
        }
    }

    /// Up to `count` bytes from `offset` (`pread`).
    func read(from offset: Int64, count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out[done...].withUnsafeMutableBytes {
                pread(fd, $0.baseAddress, $0.count, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure("pread")
            }
            if n == 0 { break }
            done += n
        }
        return Array(out[..<done])
    }

    /// Cuts the file back to `size` (`ftruncate`).
    func truncate(to size: Int64) throws {
        guard ftruncate(fd, off_t(size)) == 0 else { throw Self.failure("ftruncate") }
    }

    /// `fsync`s the file and, for a file just created, its folder (so the new name survives a power cut).
    func sync(directoryToo: Bool) throws {
        guard fsync(fd) == 0 else { throw Self.failure("fsync") }
        guard directoryToo else { return }
        let folder = (path as NSString).deletingLastPathComponent
        let dfd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw Self.failure("open the folder of") }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw Self.failure("fsync the folder of") }
    }

    private static func failure(_ call: String) -> Failure {
        Failure(description: "\(call): \(String(cString: strerror(errno)))")
    }
}
