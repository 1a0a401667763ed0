import ClickWheelTestKit
import Foundation
import Testing

/// Settings → Wheel in the running service, end to end: the built `clickwheel run` reads umockdev's
/// fake encoder and button board replaying Evdev/*-calibrate.evemu (one bouncing detent, a full turn,
/// a press of Enter: the same as `clickwheel calibrate` gets); the menu is opened and Save chosen
/// over the control socket (`ctl`), the wheel itself is measured. Checks the screens, the YAML file
/// the service rewrites (comments kept) and its log line. Run by contrib/ci/evdev-tests.sh
/// (`wheel-menu`); skipped elsewhere.
@Suite struct WheelMenuReplayTests {
    static var binary: String { CalibrateReplayTests.binary }

    static func config(_ dir: String) -> String {
        """
        # Kitchen Pi: do not lose this comment.
        music: \(dir)/music       # the NAS
        db: \(dir)/library.sqlite
        socket: \(dir)/socket
        display: none
        output: null
        lcd: 16x2

        input: [auto]
        steps_per_detent: 1       # events per detent of a rotary encoder: 1, 2 or 4
        invert_wheel: false       # clockwise moves down unless true

        """
    }

    /// `clickwheel ctl --socket SOCKET args…`; its standard output.
    static func ctl(_ socket: String, _ args: String...) throws -> String {
        let r = try ChildRun.run(binary, ["ctl", "--socket", socket] + args)
        #expect(r.status == 0, "ctl \(args): \(r.stderr)")
        return r.stdout
    }

    /// Polls the screen until `done` holds or `seconds` pass; the last screen.
    static func screen(_ socket: String, seconds: Double, until done: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        repeat {
            text = try ctl(socket, "screen")
            if done(text) { return text }
            usleep(100_000)
        } while Date() < deadline
        return text
    }

    @Test(.enabled(if: EvdevMock.has("wheel-menu"), EvdevMock.skipNote))
    func settingsWheelMeasuresTheEncoderAndSavesIntoTheConfiguration() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-wheelmenu-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/music", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/clickwheel.yaml"
        try Self.config(dir).write(toFile: path, atomically: false, encoding: .utf8)
        let log = dir + "/stderr.log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil))

        // The service's standard error into the log file.
        let service = try ChildProcess(Self.binary, ["run", "--config", path], output: .files(stdout: nil, stderr: log))
        defer {
            service.kill(SIGTERM)
            _ = service.wait()
        }
        let socket = dir + "/socket"
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(50_000) }

        // Main menu → Settings (the fourth row with an empty library) → Wheel (the last row).
        _ = try Self.ctl(socket, "wheel", "3")
        _ = try Self.ctl(socket, "press", "select")
        _ = try Self.ctl(socket, "wheel", "15")
        _ = try Self.ctl(socket, "press", "select")
        let first = try Self.ctl(socket, "screen")
        #expect(first.contains("One click right"), "\(first)")

        // The traces' detent comes 27 s after their start, the turn 4 s later, Enter 6 s after that.
        let summary = try Self.screen(socket, seconds: 60) { $0.contains("Save") }
        #expect(summary.contains("2/click reversed") && summary.contains(">Save"), "\(summary)")
        _ = try Self.ctl(socket, "press", "select")
        let saved = try Self.screen(socket, seconds: 10) { $0.contains("Saved") || $0.contains("save file") }
        #expect(saved.contains("Saved") && saved.contains("Wheel updated"), "\(saved)")

        service.kill(SIGTERM)
        _ = service.wait()
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == Self.config(dir)
                .replacingOccurrences(of: "steps_per_detent: 1 ", with: "steps_per_detent: 2 ")
                .replacingOccurrences(of: "invert_wheel: false", with: "invert_wheel: true ")
                + "select_key: 28    # KEY_ENTER\n")
        let stderr = try String(contentsOfFile: log, encoding: .utf8)
        #expect(
            stderr.contains(
                "wheel: calibrated and saved in \(path) (steps_per_detent: 2, invert_wheel: true, select_key: 28)"),
            "\(stderr)")
    }
}
