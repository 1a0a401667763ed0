import ClickWheelTestKit
import Foundation

/// Records the null sink's monitor with `parec` into a file, the way a listener would hear the output.
///
/// Pitfalls handled: `--latency-msec` keeps the tail when parec is stopped, and a
/// fresh parec on an idle sink is silent for up to 2 s, so `start` returns only once data flows.
final class Capture {
    static let rate = 44_100
    let file: URL
    private var process: ChildProcess?

    private init(file: URL) { self.file = file }

    /// Starts recording and waits (up to 10 s) until the capture is live.
    static func start(into dir: URL, name: String = "capture") async throws -> Capture {
        let capture = Capture(file: dir.appendingPathComponent("\(name)-\(UUID().uuidString).raw"))
        _ = FileManager.default.createFile(atPath: capture.file.path, contents: nil)
        capture.process = try ChildProcess(
            "parec",
            ["-d", SoundServer.monitor, "--raw", "--format=s16le", "--rate=\(rate)", "--channels=2", "--latency-msec=20"],
            output: .files(stdout: capture.file.path, stderr: nil))
        for _ in 0..<200 {
            if capture.size > 0 { return capture }
            try await Task.sleep(for: .milliseconds(50))
        }
        capture.kill()
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
        process?.kill(SIGKILL)
        _ = process?.wait()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: file)
    }
}
