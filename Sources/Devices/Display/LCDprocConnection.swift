import Glibc

/// One TCP connection to LCDd: sends command lines (Latin-1) and collects their replies in order,
/// setting aside the asynchronous lines that arrive between them.
///
/// `connect`, `send` and `close` from the display's one caller (the `lcdproc` display's writer
/// thread); blocking, with a timeout on connecting, sending and each receive, so a hung or unreachable
/// LCDd costs that thread a bounded wait and then a reconnect. Owns the socket (`socket`, `connect`,
/// `send`, `recv`, `close`).
final class LCDprocConnection {
    let endpoint: String
    private var fd: Int32 = -1
    private var lines = LCDprocLines()
    private var pending: [LCDprocLines.Line] = []
    /// Asynchronous lines received so far (listen/ignore/key), oldest first.
    private(set) var events: [String] = []

    /// Connects to `host:port` (`getaddrinfo`, `socket`, `connect`), with `timeoutMS` for the connect
    /// (Linux applies `SO_SNDTIMEO` to it), each send and each receive.
    init(host: String, port: Int, timeoutMS: Int = 2000) throws(LCDprocError) {
        endpoint = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw LCDprocError.unreachable(endpoint, String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(list) }
        var lastErrno: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let ai = entry {
            let s = socket(ai.pointee.ai_family, ai.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            if s >= 0 {
                var tv = timeval(tv_sec: timeoutMS / 1000, tv_usec: (timeoutMS % 1000) * 1000)
                setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                if Glibc.connect(s, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 {
                    fd = s
                    break
                }
                lastErrno = errno == EINPROGRESS ? ETIMEDOUT : errno  // a connect that timed out (SO_SNDTIMEO)
                Glibc.close(s)
            }
            entry = ai.pointee.ai_next
        }
        guard fd >= 0 else { throw LCDprocError.unreachable(endpoint, String(cString: strerror(lastErrno))) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    /// Closes the socket; the connection is unusable afterwards.
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends `commands` in one write and returns the replies of each, in order; `replies` says how
    /// many lines each command answers (a `screen_set` with N options: N). Throws `.rejected` for a
    /// `huh?`, `.disconnected` when the socket fails or the server closes it.
    @discardableResult
    func send(_ commands: [(line: String, replies: Int)]) throws(LCDprocError) -> [[LCDprocLines.Line]] {
        guard fd >= 0 else { throw LCDprocError.disconnected(endpoint, "not connected") }
        var bytes: [UInt8] = []
        for c in commands {
            bytes += c.line.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F }
            bytes.append(0x0A)
        }
        try write(bytes)
        var answers: [[LCDprocLines.Line]] = []
        for c in commands {
            var mine: [LCDprocLines.Line] = []
            for _ in 0..<c.replies { mine.append(try nextReply()) }
            if let bad = mine.first(where: { if case .failure = $0 { true } else { false } }),
                case .failure(let why) = bad
            {
                throw LCDprocError.rejected(c.line, why)
            }
            answers.append(mine)
        }
        return answers
    }

    private func write(_ bytes: [UInt8]) throws(LCDprocError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw LCDprocError.disconnected(endpoint, "send timed out") }
                throw LCDprocError.disconnected(endpoint, String(cString: strerror(errno)))
            }
            offset += n
        }
    }

    /// The next reply line, reading as needed; asynchronous lines go to `events`.
    private func nextReply() throws(LCDprocError) -> LCDprocLines.Line {
        while true {
            if !pending.isEmpty {
                let line = pending.removeFirst()
                if case .event(let text) = line {
                    events.append(text)
                    continue
                }
                return line
            }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw LCDprocError.disconnected(endpoint, "no reply in time")
            }
            guard n > 0 else {
                throw LCDprocError.disconnected(endpoint, n == 0 ? "closed by LCDd" : String(cString: strerror(errno)))
            }
            pending += lines.feed(buffer[0..<n])
        }
    }
}

/// The LCDproc display failed: LCDd unreachable or gone, or it rejected a command.
public enum LCDprocError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Could not connect to host:port.
    case unreachable(String, String)
    /// The connection broke (LCDd stopped or restarted).
    case disconnected(String, String)
    /// LCDd answered `huh?` to a command: a bug in the client.
    case rejected(String, String)
    /// `hello` got no `connect` line.
    case handshake(String)

    public var description: String {
        switch self {
        case .unreachable(let at, let why): "LCDd at \(at) unreachable: \(why)"
        case .disconnected(let at, let why): "LCDd at \(at) disconnected: \(why)"
        case .rejected(let command, let why): "LCDd rejected \"\(command)\": \(why)"
        case .handshake(let line): "LCDd handshake failed: \(line)"
        }
    }
}
