import Foundation
import Glibc
import Testing

/// The private LCDd of contrib/ci/lcdd-tests.sh, as its CW_LCDD_* variables describe it.
enum LCDd {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var isRunning: Bool { environment["CW_LCDD_PORT"].flatMap(Int.init) != nil && frames != nil }
    static var host: String { environment["CW_LCDD_HOST"] ?? "127.0.0.1" }
    static var port: Int { environment["CW_LCDD_PORT"].flatMap(Int.init) ?? 13666 }
    static var frames: String? { environment["CW_LCDD_FRAMES"] }
    static var size: (columns: Int, rows: Int) {
        let parts = (environment["CW_LCDD_SIZE"] ?? "20x4").split(separator: "x").compactMap { Int($0) }
        return (parts[0], parts[1])
    }
    static let skipNote: Comment = "needs a running LCDd: run contrib/ci/lcdd-tests.sh"

    /// The newest complete frame the text driver printed, rows without borders, read as Latin-1.
    static func latestFrame() -> [String]? {
        guard let path = frames, let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(data.suffix(65536).map { Character(Unicode.Scalar($0)) })
        var last: [String]?
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("+") && line.hasSuffix("+") && line.count >= 2 {
                if let c = current, c.count == size.rows {
                    last = c
                    current = nil
                } else {
                    current = []
                }
            } else if line.hasPrefix("|") && line.hasSuffix("|") && line.count >= 2, current != nil {
                current!.append(String(line.dropFirst().dropLast()))
            } else {
                current = nil
            }
        }
        return last
    }

    /// Polls until the newest frame satisfies `done` (every 50 ms), or `seconds` pass; returns the last frame.
    static func waitForFrame(seconds: Double = 5, until done: ([String]) -> Bool) async throws -> [String]? {
        let deadline = Date().addingTimeInterval(seconds)
        var frame = latestFrame()
        while Date() < deadline {
            if let f = frame, done(f) { return f }
            try await Task.sleep(for: .milliseconds(50))
            frame = latestFrame()
        }
        return frame
    }

    /// LCDd's process id (from the pid file lcdd-start.sh writes in CW_LCDD_DIR).
    static var pid: pid_t? {
        guard let dir = environment["CW_LCDD_DIR"],
            let text = try? String(contentsOfFile: dir + "/lcdd.pid", encoding: .utf8)
        else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Freezes LCDd (SIGSTOP) until `resume`: it keeps its socket and accepts connections, answers nothing.
    static func freeze() throws {
        guard let pid, kill(pid, SIGSTOP) == 0 else { throw CocoaError(.executableLoad) }
    }

    static func resume() {
        if let pid { kill(pid, SIGCONT) }
    }

    /// Runs contrib/ci/lcdd-stop.sh then lcdd-start.sh with the same folder, size and port.
    ///
    /// Through `posix_spawn` + `waitpid`, not Foundation's `Process`: that one waits until every
    /// descendant has closed its inherited descriptors, and the started LCDd keeps running.
    static func restart() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for script in ["lcdd-stop.sh", "lcdd-start.sh"] {
            let path = root.appendingPathComponent("contrib/ci/" + script).path
            var pid = pid_t()
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // The test's threads block signals; LCDd must not inherit that, or SIGTERM cannot stop it.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
            defer { for a in argv { free(a) } }
            guard posix_spawn(&pid, path, &actions, &attributes, argv, environ) == 0 else {
                throw CocoaError(.executableLoad)
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            guard status == 0 else { throw CocoaError(.executableLoad) }
        }
    }
}
