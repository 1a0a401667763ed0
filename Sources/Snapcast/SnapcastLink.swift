import Foundation
import Playback

/// Where a `snapcast` output sends its PCM: a snapserver `tcp://` source in server mode (snapserver listens,
/// ClickWheel connects) or a `pipe://` source's FIFO.
public enum SnapcastTarget: Hashable, Sendable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case pipe(path: String)

    /// Parses `tcp://HOST:PORT` or `pipe:///PATH` (a snapserver source URI without its `?…` options); nil
    /// for anything else.
    public init?(_ uri: String) {
        let bare = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        if bare.hasPrefix("tcp://") {
            let rest = bare.dropFirst(6).split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            guard let colon = rest.lastIndex(of: ":"), colon != rest.startIndex,
                let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port)
            else { return nil }
            self = .tcp(host: String(rest[..<colon]), port: port)
        } else if bare.hasPrefix("pipe://") {
            let path = String(bare.dropFirst(7))
            guard path.hasPrefix("/"), path.count > 1 else { return nil }
            self = .pipe(path: path)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): "tcp://\(host):\(port)"
        case .pipe(let path): "pipe://\(path)"
        }
    }
}

/// One open connection to a snapserver source: a TCP socket or a FIFO opened for writing.
///
/// Thread rules: the snapcast sender thread only (its writes block, up to `writeTimeout`).
final class SnapcastLink {
    let fd: Int32
    let isSocket: Bool
    /// A server that stops reading for this long is taken as gone (the sender reconnects).
    static let writeTimeout = 1.0
    /// How long a TCP connect may take (a room's server on the LAN answers in milliseconds).
    static let connectTimeoutMS: Int32 = 500

    private init(fd: Int32, isSocket: Bool) {
        self.fd = fd
        self.isSocket = isSocket
    }

    deinit { close(fd) }

    /// Connects to `target`; throws a one-line reason (refused, no reader on the FIFO, unknown host…).
    static func open(_ target: SnapcastTarget) throws(SnapcastLinkError) -> SnapcastLink {
        switch target {
        case .tcp(let host, let port): return try connect(host: host, port: port)
        case .pipe(let path):
            // O_NONBLOCK: without a reader open(2) fails with ENXIO instead of waiting for one; it stays on
            // so a full FIFO is waited for with poll(2), bounded by `writeTimeout` (a reader that stopped).
            let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw SnapcastLinkError("cannot open the FIFO \(path): \(errnoText())") }
            return SnapcastLink(fd: fd, isSocket: false)
        }
    }

    private static func connect(host: String, port: Int) throws(SnapcastLinkError) -> SnapcastLink {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw SnapcastLinkError("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let ai = entry {
            entry = ai.pointee.ai_next
            let fd = socket(ai.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            if let failure = connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) {
                reason = failure
                close(fd)
                continue
            }
            var tv = timeval(tv_sec: Int(writeTimeout), tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return SnapcastLink(fd: fd, isSocket: true)
        }
        throw SnapcastLinkError("cannot connect to tcp://\(host):\(port): \(reason)")
    }

    /// A non-blocking connect bounded by `connectTimeoutMS`; nil when connected, else the reason.
    private static func connect(_ fd: Int32, _ addr: UnsafeMutablePointer<sockaddr>?, _ len: socklen_t) -> String? {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if Glibc.connect(fd, addr, len) == 0 { return nil }
        guard errno == EINPROGRESS else { return errnoText() }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&p, 1, connectTimeoutMS) == 1 else { return "timed out" }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
        return error == 0 ? nil : String(cString: strerror(error))
    }

    /// Writes all of `bytes`; throws when the server is gone or stopped reading for `writeTimeout`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SnapcastLinkError) {
        var done = 0
        while done < bytes.count {
            let base = bytes.baseAddress! + done
            let n =
                isSocket
                ? send(fd, base, bytes.count - done, Int32(MSG_NOSIGNAL))
                : Glibc.write(fd, base, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN, !isSocket {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    if poll(&p, 1, Int32(Self.writeTimeout * 1000)) == 1, p.revents & Int16(POLLOUT) != 0 { continue }
                }
                throw SnapcastLinkError(errno == EAGAIN ? "the server stopped reading" : errnoText())
            }
            done += n
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
    private func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Why the link to snapserver could not be made or broke (one line, for the log and the outputs list).
struct SnapcastLinkError: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}
