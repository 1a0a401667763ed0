import Foundation

/// Records the null sink's monitor with `parec` into a file, the way a listener would hear the output.
///
/// Pitfalls handled: `--latency-msec` keeps the tail when parec is stopped, and a
/// fresh parec on an idle sink is silent for up to 2 s, so `start` returns only once data flows.
final class Capture {
    static let rate = 44_100
    let file: URL
    private let process = Process()

    private init(file: URL) { self.file = file }

    /// Starts recording and waits (up to 10 s) until the capture is live.
    static func start(into dir: URL, name: String = "capture") async throws -> Capture {
        let capture = Capture(file: dir.appendingPathComponent("\(name)-\(UUID().uuidString).raw"))
        _ = FileManager.default.createFile(atPath: capture.file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: capture.file)
        capture.process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        capture.process.arguments = [
            "parec", "-d", SoundServer.monitor, "--raw", "--format=s16le", "--rate=\(rate)", "--channels=2",
            "--latency-msec=20",
        ]
        capture.process.standardOutput = handle
        capture.process.standardError = FileHandle.nullDevice
        try capture.process.run()
        for _ in 0..<200 {
            if capture.size > 0 { return capture }
            try await Task.sleep(for: .milliseconds(50))
        }
        capture.process.terminate()
        throw Shell.Failure(description: "parec delivered no data within 10 s")
    }

    private var size: Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
    }

    /// Seconds recorded so far.
    var seconds: Double { Double(size / 4) / Double(Self.rate) }

    /// Stops parec and returns the left channel. SIGKILL, because a child of the test process inherits its
    /// blocked SIGTERM/SIGINT; parec has written all but the last 20 ms by then.
    func stop() throws -> Signal {
        kill()
        return try Signal(rawStereoFile: file)
    }

    private func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: file)
    }
}
