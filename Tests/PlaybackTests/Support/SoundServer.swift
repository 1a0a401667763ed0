import ClickWheelTestKit
import Foundation

/// The sound server the tests play into: the one `contrib/ci/pulse-start.sh` or `pipewire-start.sh` started
/// and described in the environment (`PULSE_SERVER`, `CW_PULSE_MONITOR`, `CW_PULSE_DIR`, `CW_PULSE_KIND`).
enum SoundServer {
    static let environment = ProcessInfo.processInfo.environment

    /// True when a server is configured; the real-server tests are skipped otherwise.
    static let isConfigured = environment["PULSE_SERVER"] != nil

    /// The null sink's monitor source that `parec` records.
    static var monitor: String { environment["CW_PULSE_MONITOR"] ?? "clickwheel_null.monitor" }

    /// The sink the start script made the default.
    static var sink: String { environment["CW_PULSE_SINK"] ?? "clickwheel_null" }

    /// `pulseaudio` or `pipewire`: which start/stop scripts manage the server. Decided once, while the
    /// server runs (the stop script removes the files that tell them apart).
    static let kind: String = {
        if let kind = environment["CW_PULSE_KIND"] { return kind }
        if let dir = environment["CW_PULSE_DIR"], FileManager.default.fileExists(atPath: dir + "/pids") {
            return "pipewire"
        }
        return "pulseaudio"
    }()

    /// The project's contrib/ci folder, found from this source file.
    static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contrib/ci")

    /// Stops the server with the project's stop script (same `CW_PULSE_DIR`).
    static func stop() throws {
        _ = try Shell.run(["bash", scripts.appendingPathComponent(kind == "pipewire" ? "pipewire-stop.sh" : "pulse-stop.sh").path])
    }

    /// Starts it again with the project's start script; returns when it answers.
    static func start() throws {
        _ = try Shell.run([
            "bash", scripts.appendingPathComponent(kind == "pipewire" ? "pipewire-start.sh" : "pulse-start.sh").path,
        ])
    }
}

/// Runs tools (sox, lame, pactl, the CI scripts) for the tests.
enum Shell {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `arguments` (the program found on PATH), optionally with extra environment; returns stdout; throws on
    /// a non-zero exit with stderr in the message.
    @discardableResult
    static func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        // Files, not pipes: daemons a start script leaves running (pipewire) would inherit a pipe's write end
        // and the read would never see EOF.
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("cw-shell-\(UUID().uuidString)")
        let errURL = outURL.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let child = try ChildProcess(
            arguments[0], Array(arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
            output: .files(stdout: outURL.path, stderr: errURL.path))
        let status = child.wait().status
        let output = (try? Data(contentsOf: outURL)) ?? Data()
        let errors = (try? Data(contentsOf: errURL)) ?? Data()
        guard status == 0 else {
            throw Failure(
                description: "\(arguments.joined(separator: " ")) exited \(status): "
                    + String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
