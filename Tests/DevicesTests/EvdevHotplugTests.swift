import ClickWheelCore
import ClickWheelTestKit
import Devices
import Glibc
import Testing

/// Hotplug through inotify with a real libevdev device: umockdev redirects the watch on /dev/input
/// to its testbed, so moving the node out of the testbed and back in is a device disappearing and
/// appearing (IN_MOVED_TO), and a chmod is udev fixing permissions (IN_ATTRIB). Run by
/// contrib/ci/evdev-tests.sh (run "hotplug", the rotary device); skipped elsewhere.
///
/// Not covered here: a device that fails with ENODEV while open (umockdev cannot unplug a node
/// that is open), which only a Pi shows (see contrib/raspberrypi/README.md).
@Suite struct EvdevHotplugTests {
    @Test(.enabled(if: EvdevMock.has("hotplug"), EvdevMock.skipNote))
    func aNodeThatAppearsLaterIsOpenedOnceAndRead() async throws {
        let testbed = String(cString: getenv("UMOCKDEV_DIR")) + "/dev/input"
        let node = testbed + "/event0"
        let away = testbed + "/.event0-unplugged"
        #expect(rename(node, away) == 0)
        let log = LogCapture()
        let recorder = InputRecorder()
        let profile = EvdevProfile(stepsPerDetent: 2)
        let input = EvdevInput(
            configuration: .init(directory: EvdevMock.directory!, profiles: [profile]), logger: log.logger)
        try input.start(recorder.sink)
        defer { input.stop() }
        #expect(input.openDevices.isEmpty)
        #expect(log.lines.contains { $0.contains("no input device yet") })

        #expect(rename(away, node) == 0)
        let plugged = MonotonicClock.now()
        while input.openDevices.isEmpty && MonotonicClock.now().milliseconds(since: plugged) < 2000 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(input.openDevices == [EvdevMock.directory! + "/event0"], "opened within 1 s of appearing")
        #expect(MonotonicClock.now().milliseconds(since: plugged) < 1000)
        #expect(chmod(node, 0o660) == 0, "IN_ATTRIB, as when udev sets the group")

        try await recorder.wait(seconds: 45) { $0.count >= 16 }
        let steps = recorder.all.compactMap { e -> Int? in
            if case .wheel(let s, _) = e { return s }
            return nil
        }
        #expect(steps == [1, 1, 1, 1, -1, -1] + Array(repeating: 1, count: 10))
        let opened = log.lines.filter { $0.contains("input: opened") }
        #expect(opened.count == 1, "one log line for the device, not one per inotify event: \(opened)")
        #expect(opened.first?.contains("\"rotary@11\": wheel REL_X, grabbed") == true)
    }
}
