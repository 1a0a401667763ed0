// Downloads one episode's enclosure into its show's folder: written to `.<name>.part` (hidden, and a
// suffix the library's indexer does not read), fsynced and renamed into place when whole. An interrupted
// download (a dropped connection, a cancelled task, a killed process) leaves its `.part`, which the next
// attempt continues with `Range: bytes=N-` when the server answers 206 (else it starts over).
// File work (stat, statvfs, write, fsync, rename) runs on named threads, off Swift's cooperative pool.
import Foundation
import NIOCore
import NIOHTTP1
import NamedThreads

#if canImport(Glibc)
    import Glibc
#endif

public struct EpisodeDownloader: Sendable {
    public struct Progress: Sendable, Hashable {
        /// Bytes of the file on disk or in hand so far (with what an earlier attempt left).
        public var received: Int64
        /// The whole file's size when the server says it.
        public var total: Int64?

        public init(received: Int64, total: Int64?) {
            self.received = received
            self.total = total
        }
    }

    public struct Outcome: Sendable, Hashable {
        /// The finished file's path.
        public var path: String
        public var bytes: Int64
        /// The size of the `.part` this download continued from (0: from the start).
        public var resumedFrom: Int64
        /// True when the file was already there: nothing was fetched.
        public var alreadyPresent: Bool
    }

    /// Why a download failed. `partKept` says whether a `.part` stays for the next attempt to resume.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The request failed (redirects, HTTP status, timeout, network, cancelled); see `partKept`.
        case fetch(FetchError, partKept: Bool)
        /// The server sent a web page (text/html), not audio: nothing kept.
        case notAudio(contentType: String)
        /// Over the per-episode cap: nothing kept.
        case tooLarge(bytes: Int64, cap: Int64)
        /// Not enough free space on the music folder's file system (free, needed, in bytes).
        case noSpace(free: Int64, needed: Int64)
        /// The body ended before the length the server gave; the `.part` stays.
        case truncated(received: Int64, expected: Int64)
        /// A file operation failed (the path and the system's reason).
        case file(String)

        public var description: String {
            switch self {
            case .fetch(let error, let kept): "\(error)\(kept ? " (the partial file is kept to resume)" : "")"
            case .notAudio(let type): "the server sent \(type), not audio (an error page?)"
            case .tooLarge(let bytes, let cap): "the episode is \(bytes) bytes, over the limit of \(cap)"
            case .noSpace(let free, let needed): "not enough free space: \(free) bytes free, \(needed) needed"
            case .truncated(let received, let expected): "the download stopped at \(received) of \(expected) bytes (kept to resume)"
            case .file(let reason): reason
            }
        }
    }

    let http: PodcastHTTP
    /// Free space left on the file system after a download, besides the download itself.
    public var reserveBytes: Int64
    /// Bytes gathered in memory before one write.
    static let writeChunk = 1 << 20

    public init(http: PodcastHTTP, reserveBytes: Int64 = 64 << 20) {
        self.http = http
        self.reserveBytes = reserveBytes
    }

    /// The temporary name of a download of `name` in the same folder.
    public static func partName(_ name: String) -> String { ".\(name).part" }

    /// Downloads `url` to `directory/name` (the folder is made if missing). `expectedBytes` is the feed's
    /// claim (a first free-space check before any request; the server's length decides after). `progress`
    /// is called on each piece received. Throws `Failure`.
    public func download(
        _ url: String, to directory: String, name: String, expectedBytes: Int64? = nil, cap: Int64 = 1 << 30,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws(Failure) -> Outcome {
        let finalPath = directory + "/" + name
        let partPath = directory + "/" + Self.partName(name)
        let reserve = reserveBytes
        let start = try await NamedThread.run("podcast-stat") { () -> Swift.Result<(Int64?, Int64, Int64), Failure> in
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                return .failure(.file("cannot make the folder \(directory): \(error.localizedDescription)"))
            }
            return .success((FileOps.size(finalPath), FileOps.size(partPath) ?? 0, FileOps.freeBytes(directory)))
        }.get()
        if let done = start.0 { return Outcome(path: finalPath, bytes: done, resumedFrom: 0, alreadyPresent: true) }
        var offset = start.1
        if let expectedBytes, expectedBytes > cap { throw .tooLarge(bytes: expectedBytes, cap: cap) }
        if let expectedBytes, expectedBytes > offset, start.2 < expectedBytes - offset + reserve {
            throw .noSpace(free: start.2, needed: expectedBytes - offset + reserve)
        }

        // At most two requests: a Range the server cannot honour (416, or a range starting elsewhere) is
        // asked again from the start.
        var attempt = 0
        while true {
            attempt += 1
            var headers = HTTPHeaders()
            headers.add(name: "Accept-Encoding", value: "identity")
            if offset > 0 { headers.add(name: "Range", value: "bytes=\(offset)-") }
            let followed: PodcastHTTP.Followed
            do {
                followed = try await http.get(url, headers: headers, deadline: .now() + .hours(12))
            } catch {
                throw .fetch(error, partKept: offset > 0)
            }
            let response = followed.response
            let code = Int(response.status.code)
            let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
            let length = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
            var writeFrom: Int64 = 0
            var total: Int64?
            switch code {
            case 206:
                let range = Self.contentRange(response.headers.first(name: "Content-Range"))
                if range?.start == offset {
                    writeFrom = offset
                    total = range?.total ?? length.map { $0 + offset }
                } else if attempt == 1 {
                    offset = 0
                    continue
                } else {
                    throw .fetch(.httpStatus(206, "with a range that was not asked for"), partKept: false)
                }
            case 200:
                total = length
            case 416 where attempt == 1:
                await FileOps.remove(partPath)
                offset = 0
                continue
            case 404, 410:
                await FileOps.remove(partPath)
                throw .fetch(.httpStatus(code, response.status.reasonPhrase), partKept: false)
            default:
                throw .fetch(.httpStatus(code, response.status.reasonPhrase), partKept: offset > 0)
            }
            if type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") {
                await FileOps.remove(partPath)
                throw .notAudio(contentType: type.split(separator: ";").first.map(String.init) ?? type)
            }
            if let total, total > cap {
                await FileOps.remove(partPath)
                throw .tooLarge(bytes: total, cap: cap)
            }
            if let total {
                let free = await NamedThread.run("podcast-statvfs") { FileOps.freeBytes(directory) }
                if free < total - writeFrom + reserve { throw .noSpace(free: free, needed: total - writeFrom + reserve) }
            }
            let resumedFrom = writeFrom
            let file = try await PartFile.open(partPath, at: writeFrom)
            var received = writeFrom
            var pending: [UInt8] = []
            pending.reserveCapacity(Self.writeChunk)
            progress(Progress(received: received, total: total))
            do {
                for try await chunk in response.body {
                    received += Int64(chunk.readableBytes)
                    if received > cap { throw Failure.tooLarge(bytes: total ?? received, cap: cap) }
                    pending.append(contentsOf: chunk.readableBytesView)
                    if pending.count >= Self.writeChunk {
                        try await file.write(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                    progress(Progress(received: received, total: total))
                    try Task.checkCancellation()
                }
                try await file.write(pending)
                pending = []
            } catch {
                // What arrived is kept for the next attempt, except past the cap.
                if case .tooLarge(let bytes, let cap) = error as? Failure {
                    await file.close()
                    await FileOps.remove(partPath)
                    throw .tooLarge(bytes: bytes, cap: cap)
                }
                try? await file.write(pending)
                await file.close()
                if let failure = error as? Failure { throw failure }
                throw .fetch(FetchError(error), partKept: received > 0)
            }
            if let total, received != total {
                await file.close()
                throw .truncated(received: received, expected: total)
            }
            try await file.finish(renamingTo: finalPath, directory: directory)
            return Outcome(path: finalPath, bytes: received, resumedFrom: resumedFrom, alreadyPresent: false)
        }
    }

    /// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
    static func contentRange(_ value: String?) -> (start: Int64, total: Int64?)? {
        guard let value, let space = value.firstIndex(of: " ") else { return nil }
        let spec = value[value.index(after: space)...]
        guard let dash = spec.firstIndex(of: "-"), let start = Int64(spec[..<dash]) else { return nil }
        let total = spec.firstIndex(of: "/").flatMap { Int64(spec[spec.index(after: $0)...]) }
        return (start, total)
    }
}

/// A `.part` file open for writing. Its descriptor is an integer owned by this one download; every call
/// runs on a named thread.
struct PartFile: Sendable {
    let fd: Int32
    let path: String

    static func open(_ path: String, at offset: Int64) async throws(EpisodeDownloader.Failure) -> PartFile {
        let fd = await NamedThread.run("podcast-open") { () -> Int32 in
            let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return -errno }
            // Resuming: the file is exactly what came before `offset`; from the start: emptied.
            if ftruncate(fd, off_t(offset)) != 0 || lseek(fd, off_t(offset), SEEK_SET) < 0 {
                let code = errno
                Glibc.close(fd)
                return -code
            }
            return fd
        }
        guard fd >= 0 else { throw .file("cannot open \(path): \(String(cString: strerror(-fd)))") }
        return PartFile(fd: fd, path: path)
    }

    func write(_ bytes: [UInt8]) async throws(EpisodeDownloader.Failure) {
        guard !bytes.isEmpty else { return }
        let fd = fd
        let failed = await NamedThread.run("podcast-write") { () -> Int32 in
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return 0
        }
        if failed != 0 { throw .file("cannot write \(path): \(String(cString: strerror(failed)))") }
    }

    func close() async {
        let fd = fd
        await NamedThread.run("podcast-close") { _ = Glibc.close(fd) }
    }

    /// fsync, close, rename over the final name, fsync the folder: after a power cut the episode is either
    /// whole under its name or not there.
    func finish(renamingTo finalPath: String, directory: String) async throws(EpisodeDownloader.Failure) {
        let fd = fd
        let path = path
        let failure = await NamedThread.run("podcast-rename") { () -> String? in
            defer { Glibc.close(fd) }
            if fsync(fd) != 0 { return "cannot sync \(path): \(String(cString: strerror(errno)))" }
            if rename(path, finalPath) != 0 { return "cannot rename \(path): \(String(cString: strerror(errno)))" }
            let dfd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dfd >= 0 {
                _ = fsync(dfd)
                Glibc.close(dfd)
            }
            return nil
        }
        if let failure { throw .file(failure) }
    }
}

enum FileOps {
    /// A regular file's size, or nil when there is none.
    static func size(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path`.
    static func freeBytes(_ path: String) -> Int64 {
        var fs = statvfs()
        guard statvfs(path, &fs) == 0 else { return Int64.max }
        let free = UInt64(fs.f_bavail).multipliedReportingOverflow(by: UInt64(fs.f_frsize))
        return free.overflow || free.partialValue > UInt64(Int64.max) ? Int64.max : Int64(free.partialValue)
    }

    static func remove(_ path: String) async {
        await NamedThread.run("podcast-unlink") { _ = unlink(path) }
    }
}
