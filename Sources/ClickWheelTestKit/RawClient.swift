#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A raw protocol client: bytes in, bytes out, reading until OK/ACK or the connection closes.
public final class RawClient {
    public let fd: Int32

    public init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else { throw POSIXError(.ECONNREFUSED) }
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    public func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads until the response ends (a line `OK`, `ACK …`, or the greeting) or the peer closes.
    public func response() -> String {
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            data += buf[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("OK\n") || text.hasSuffix("\n") && text.split(separator: "\n").last?.hasPrefix("ACK ") == true
                || (text.hasPrefix("OK MPD") && text.hasSuffix("\n") && text.split(separator: "\n").count == 1)
            {
                break
            }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// True when the server closed the connection: end of file, or a reset (a close with our bytes
    /// still unread on its side); false when a byte arrives or the 10 s receive timeout passes.
    public func isClosed() -> Bool {
        var b: UInt8 = 0
        let n = read(fd, &b, 1)
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    public func roundTrip(_ line: String) -> String {
        send(line + "\n")
        return response()
    }
}
