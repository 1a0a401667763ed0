import ClickWheelTestKit
import Foundation
import NIOCore
import NIOPosix
import NamedThreads
import Podcasts

/// The tests' HTTP server: Resources/podcast_server.py (Python's http.server) on 127.0.0.1, serving the
/// files of a fresh folder, with the misbehaving paths that script documents.
final class TestServer: Sendable {
    /// One event loop group for the whole test process (the service's part: this module makes none).
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Resources/podcast_server.py").path

    let root: String
    let port: Int
    let process: ChildProcess

    private init(root: String, port: Int, process: ChildProcess) {
        self.root = root
        self.port = port
        self.process = process
    }

    /// Starts the script (ChildProcess: posix_spawn and waitpid, not Foundation's Process and its
    /// libdispatch SIGCHLD monitor) and waits for the port it writes, or for its exit.
    static func start() async throws -> TestServer {
        let root = FileManager.default.temporaryDirectory.appending(path: "podcast-server-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let portFile = root + ".port"
        let process = try ChildProcess("/usr/bin/env", ["python3", script, root, portFile], output: .discard)
        // A condition, not a time: the file is renamed into place whole, or the script has ended.
        let line = await NamedThread.run("test-server-port") { () -> String in
            while true {
                if let text = try? String(contentsOfFile: portFile, encoding: .utf8) { return text }
                if process.hasExited { return "" }
                usleep(10_000)
            }
        }
        try? FileManager.default.removeItem(atPath: portFile)
        guard let port = Int(line) else {
            process.kill(SIGKILL)
            _ = process.wait()
            throw ServerError(message: "the test server did not start: '\(line)'")
        }
        return TestServer(root: root, port: port, process: process)
    }

    struct ServerError: Error { var message: String }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    func write(_ name: String, _ data: Data) throws {
        try data.write(to: URL(filePath: root).appending(path: name))
    }

    func write(_ name: String, _ text: String) throws { try write(name, Data(text.utf8)) }

    /// The requests the server has answered so far.
    struct Seen: Decodable {
        var path: String
        var range: String?
        var ifNoneMatch: String?
        var status: Int
        var sent: Int
    }

    func requests(_ http: PodcastHTTP) async throws -> [Seen] {
        let result = try await FeedFetcher(http: http).fetch(url("stats"))
        guard case .fetched(let data, _, _, _, _) = result else { return [] }
        return try JSONDecoder().decode([Seen].self, from: data).filter { $0.path != "/stats" }
    }

    /// SIGKILL, then reaped (at once: the kernel ends a killed process without waiting for it).
    func stop() {
        process.kill(SIGKILL)
        _ = process.wait()
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// A fresh folder for downloads.
func scratchFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appending(path: "podcast-dl-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Bytes that are not all alike (so a piece written at the wrong offset shows).
func audioBytes(_ count: Int, seed: UInt8 = 7) -> Data {
    var state = UInt32(seed) &* 2_654_435_761 | 1
    return Data((0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return UInt8(truncatingIfNeeded: state)
    })
}
