import ArgumentParser
import ClickWheelConfig
import Foundation

/// A blocking MPD-protocol client on a Unix socket, one request at a time (for `ctl`).
final class SocketClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            throw Failure(description: "the socket path is too long")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: reason)
        }
        let greeting = try readLine()
        guard greeting.hasPrefix("OK MPD ") else {
            close(fd)
            throw Failure(description: "not an MPD-protocol server (it said '\(greeting)')")
        }
    }

    deinit { close(fd) }

    /// MPD's quoting: every argument in double quotes, `"` and `\` escaped.
    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Sends one line; returns the reply's lines up to and including `OK` or `ACK …`.
    func request(_ line: String) throws -> [String] {
        let data = Array((line + "\n").utf8)
        var sent = 0
        while sent < data.count {
            let n = data[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the connection closed") }
            sent += n
        }
        var lines: [String] = []
        while true {
            let l = try readLine()
            lines.append(l)
            if l == "OK" || l.hasPrefix("ACK ") { return lines }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw Failure(description: "the connection closed") }
            buffer += chunk[..<n]
        }
    }
}
