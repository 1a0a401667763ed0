import ArgumentParser
import ClickWheelConfig
import Foundation

/// `clickwheel ctl`: drives a running ClickWheel over its control socket from a shell.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control a running ClickWheel over its socket: turn the wheel, press buttons, read the screen.",
        discussion: """
            Actions:
              wheel N              turn the wheel N steps (negative: anticlockwise)
              press BUTTON         click menu, select, playpause, next or prev
              hold BUTTON [MS]     hold a button (default 1500 ms)
              screen [--follow]    print the LCD's rows; with --follow, again at every new frame
              send 'LINE'          send any MPD command line and print the answer
            Exit status: 0 on OK, 1 when the service answers with an error or cannot be reached, 64 for a usage error.
            """)

    @Option(help: ArgumentHelp("The control socket (env CLICKWHEEL_SOCKET).", valueName: "PATH"))
    var socket: String?

    @Option(help: ArgumentHelp("The configuration file, for its socket path.", valueName: "FILE"))
    var config: String?

    @Flag(help: "With screen: print the screen again at every new frame until interrupted.")
    var follow = false

    @Argument(help: "The action and its arguments.")
    var action: [String]

    func validate() throws {
        guard let verb = action.first else { throw ValidationError("name an action: wheel, press, hold, screen or send") }
        let counts: [String: ClosedRange<Int>] = ["wheel": 1...1, "press": 1...1, "hold": 1...2, "screen": 0...0, "send": 1...1]
        guard let range = counts[verb] else { throw ValidationError("unknown action '\(verb)'") }
        guard range.contains(action.count - 1) else { throw ValidationError("'\(verb)' takes \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)") argument(s)") }
        if verb == "wheel", Int(action[1]) == nil { throw ValidationError("wheel takes a whole number of steps") }
        if follow && verb != "screen" { throw ValidationError("--follow goes with screen") }
    }

    func run() throws {
        let path = try Failure.configuration(explicit: config, flags: socket.map { ["socket": $0] } ?? [:]).config.socket
        let client: SocketClient
        do {
            client = try SocketClient(path: path)
        } catch {
            throw Failure.exit(command: "clickwheel ctl", "cannot reach ClickWheel at \(path): \(error)")
        }
        let verb = action[0]
        let line: String
        switch verb {
        case "send": line = action[1]
        case "screen": line = "screen"
        default: line = ([verb] + action.dropFirst().map(SocketClient.quote)).joined(separator: " ")
        }
        try answer(client, line, rowsOnly: verb == "screen")
        while follow {
            _ = try client.request("idle screen")
            try answer(client, "screen", rowsOnly: true)
        }
    }

    /// Sends `line`, prints the reply (for `screen`, only the rows), fails on ACK.
    private func answer(_ client: SocketClient, _ line: String, rowsOnly: Bool) throws {
        let reply: [String]
        do {
            reply = try client.request(line)
        } catch {
            throw Failure.exit(command: "clickwheel ctl", "\(error)")
        }
        if let last = reply.last, last.hasPrefix("ACK ") {
            throw Failure.exit(command: "clickwheel ctl", last)
        }
        var out = ""
        for l in reply.dropLast() {
            if rowsOnly {
                if l.hasPrefix("row: ") { out += l.dropFirst(5) + "\n" }
            } else {
                out += l + "\n"
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}

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
