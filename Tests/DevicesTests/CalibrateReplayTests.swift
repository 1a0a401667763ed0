import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// `clickwheel calibrate --write`, the built binary, against umockdev's fake devices replaying
/// Evdev/*-calibrate.evemu (one detent, one full turn, a press) through the real libevdev reader:
/// checks what it prints and the YAML file it rewrites. Run by contrib/ci/evdev-tests.sh
/// (`calibrate-rotary`, `calibrate-touchpad`); skipped elsewhere.
@Suite struct CalibrateReplayTests {
    static var binary: String {
        BuiltProducts.path(
            "clickwheel",
            root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
    }

    static let config = ConfigFixtures.commented

    /// Runs the command on a copy of `config`; returns its output and the file afterwards.
    static func calibrate() throws -> (status: Int32, stdout: String, stderr: String, yaml: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-calibrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clickwheel.yaml").path
        try config.write(toFile: path, atomically: false, encoding: .utf8)
        let r = try ChildRun.run(binary, ["calibrate", "--config", path, "--write", "--timeout", "40"])
        return (r.status, r.stdout, r.stderr, try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test(.enabled(if: EvdevMock.has("calibrate-rotary"), EvdevMock.skipNote))
    func aReversedBouncingEncoderAndAButtonBoard() throws {
        let r = try Self.calibrate()
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("     one detent: 2 events on REL_X of /dev/input/event0, clockwise counts down"))
        #expect(lines.contains("     one turn: 40 events = 20 detents: confirmed"))
        #expect(lines.contains("     select: KEY_ENTER (28) on /dev/input/event1"))
        #expect(lines.contains { $0.hasPrefix("note: contact bounce seen") })
        #expect(
            r.yaml == """
                # Kitchen Pi: do not lose this comment.
                music: ~/Music            # the NAS

                input: [auto]
                steps_per_detent: 2       # events per detent of a rotary encoder: 1, 2 or 4
                invert_wheel: true        # clockwise moves down unless true
                volume: 40
                select_key: 28    # KEY_ENTER

                """)
    }

    @Test(.enabled(if: EvdevMock.has("calibrate-touchpad"), EvdevMock.skipNote))
    func anOffCentreTouchRingClickedForSelect() throws {
        let r = try Self.calibrate()
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // One circle alone lands within a unit of the ring (its overlap weighs one side); both circles fit it.
        #expect(
            lines.contains {
                $0.hasPrefix("     circle: centre 560,4")
                    && $0.hasSuffix(" radius 380 on /dev/input/event2, clockwise is positive")
            })
        #expect(lines.contains("     second circle agrees: centre 560,480 radius 380 (both circles)"))
        #expect(lines.contains("     select: BTN_LEFT (272) on /dev/input/event2"))
        #expect(
            r.yaml == """
                # Kitchen Pi: do not lose this comment.
                music: ~/Music            # the NAS

                input: [auto]
                steps_per_detent: 1       # events per detent of a rotary encoder: 1, 2 or 4
                invert_wheel: false       # clockwise moves down unless true
                volume: 40
                touch_ring: 560,480,380    # centre x, y and radius in device units (calibrated)
                degrees_per_step: 15    # touch ring: degrees per step
                select_key: 272    # BTN_LEFT

                """)
    }
}

/// Runs a program to its end (the test kit's `ChildProcess`: posix_spawn and waitpid).
enum ChildRun {
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try ChildProcess.run(path, arguments)
        return (r.status, r.stdout, r.stderr)
    }
}
