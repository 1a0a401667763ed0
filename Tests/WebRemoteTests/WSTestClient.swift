import Foundation

/// A small blocking HTTP and WebSocket client over a real TCP socket, for the server tests: it sends
/// exactly the bytes a test asks for (bad ones included) and reads what the server answers.
final class WSTestClient {
    let fd: Int32
    private var pending: [UInt8] = []

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (a slow reader).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else {
            close(fd)
            throw Failure(description: "connect: \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

    /// Reads until `count` bytes are pending; false at EOF or timeout.
    private func fill(_ count: Int) -> Bool {
        var buf = [UInt8](repeating: 0, count: 65536)
        while pending.count < count {
            let n = Glibc.read(fd, &buf, buf.count)
            guard n > 0 else { return false }
            pending += buf[0..<n]
        }
        return true
    }

    /// An HTTP request; returns the status line, the headers (lowercased names) and the body.
    func get(_ path: String, headers: [String: String] = [:]) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        var request = "GET \(path) HTTP/1.1\r\n"
        var h = ["Host": "127.0.0.1"]
        h.merge(headers) { $1 }
        for (k, v) in h.sorted(by: { $0.key < $1.key }) where !v.isEmpty { request += "\(k): \(v)\r\n" }
        send(Array((request + "\r\n").utf8))
        return try response()
    }

    func response() throws -> (status: Int, headers: [String: String], body: [UInt8]) {
        var end: Int?
        while end == nil {
            if let r = pending.indices.dropLast(3).first(where: { pending[$0..<$0 + 4] == [13, 10, 13, 10] }) {
                end = r
            } else if !fill(pending.count + 1) {
                throw Failure(description: "no response head")
            }
        }
        let head = String(decoding: pending[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        pending.removeFirst(end! + 4)
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard fill(length) else { throw Failure(description: "short body") }
        let body = Array(pending[..<length])
        pending.removeFirst(length)
        return (status, headers, body)
    }

    /// The WebSocket handshake; returns the HTTP status (101 when upgraded).
    func upgrade(origin: String? = "http://127.0.0.1", host: String = "127.0.0.1") throws -> Int {
        var headers = [
            "Host": host, "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        ]
        if let origin { headers["Origin"] = origin }
        return try get("/ws", headers: headers).status
    }

    /// Sends one frame (masked, as a browser must, unless `masked` is false).
    func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            out.append(maskBit | UInt8(payload.count))
        } else {
            out.append(maskBit | 126)
            out += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        if masked {
            let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            out += key
            out += payload.enumerated().map { $1 ^ key[$0 % 4] }
        } else {
            out += payload
        }
        send(out)
    }

    func sendText(_ text: String) { sendFrame(opcode: 1, Array(text.utf8)) }

    /// The next frame from the server: its opcode and payload; nil at EOF or timeout.
    func readFrame() -> (opcode: UInt8, payload: [UInt8])? {
        guard fill(2) else { return nil }
        let opcode = pending[0] & 0x0F
        var length = Int(pending[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard fill(4) else { return nil }
            length = Int(pending[2]) << 8 | Int(pending[3])
            header = 4
        } else if length == 127 {
            guard fill(10) else { return nil }
            length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard fill(header + length) else { return nil }
        let payload = Array(pending[header..<header + length])
        pending.removeFirst(header + length)
        return (opcode, payload)
    }

    /// The next text message as a JSON object; nil at EOF, on a close frame or on anything else.
    func readMessage() -> [String: Any]? {
        while let (opcode, payload) = readFrame() {
            if opcode == 1 { return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] }
            if opcode == 8 { lastClose = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 0; return nil }
        }
        return nil
    }

    /// Reads messages until one of type `t` (nil when the socket ends first).
    func read(type t: String) -> [String: Any]? {
        while let m = readMessage() { if m["t"] as? String == t { return m } }
        return nil
    }

    /// The close code the server sent, once a close frame was read.
    var lastClose: Int?
}
