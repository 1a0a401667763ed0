import ClickWheelCore
import Evdev
import Glibc
import NamedThreads
import Synchronization
import Testing

@testable import Devices

/// Discovery and hotplug pieces that need no input device: classification, profiles, the inotify
/// watcher and the wrapper's errors on nodes that are not evdev devices.
@Suite struct EvdevDiscoveryTests {
    private func caps(
        _ codes: [(UInt16, UInt16)], abs: [UInt16: EvdevAbsInfo] = [:], profile: EvdevProfile = EvdevProfile()
    ) -> EvdevCapabilities {
        EvdevCapabilities(
            has: { t, c in codes.contains { $0 == (t, c) } }, absInfo: { abs[$0] }, profile: profile)
    }

    @Test func capabilitiesPickTheWheelAxisTouchRingAndKeys() {
        let encoder = caps([(2, EvdevCode.relX)])
        #expect(encoder.wheelAxis == EvdevCode.relX && encoder.isUseful)
        let mouse = caps([(2, EvdevCode.relX), (2, EvdevCode.relY), (2, EvdevCode.relWheel), (1, KeyCode.btnLeft)])
        #expect(mouse.wheelAxis == EvdevCode.relWheel, "a mouse scrolls with its wheel, not by moving")
        #expect(caps([(2, EvdevCode.relDial), (2, EvdevCode.relX)]).wheelAxis == EvdevCode.relDial)
        let range = EvdevAbsInfo(value: 0, minimum: 0, maximum: 1023)
        let pad = caps([(1, EvdevCode.btnTouch)], abs: [EvdevCode.absX: range, EvdevCode.absY: range])
        #expect(pad.touchRanges?.x == range && pad.wheelAxis == nil)
        #expect(caps([], abs: [EvdevCode.absX: range, EvdevCode.absY: range]).touchRanges == nil, "no BTN_TOUCH")
        let keyboard = caps([(1, KeyCode.up), (1, KeyCode.down), (1, EvdevCode.keyEnter), (1, 30)])
        #expect(keyboard.keys == [EvdevCode.keyEnter, KeyCode.up, KeyCode.down])
        #expect(caps([(1, KeyCode.power)]).isUseful == false, "a power button is never a click-wheel button")
        #expect(caps([(5, 0)]).description == "nothing usable")
    }

    @Test func aProfileKeyMapDecidesWhichKeysCount() {
        let remote = EvdevProfile(buttons: [200: .select], wheelKeys: [:])
        #expect(caps([(1, 200), (1, KeyCode.up)], profile: remote).keys == [200])
        let decoder = caps([(1, 200)], profile: remote).decoder(profile: remote)
        var d = decoder
        #expect(
            d.feed(RawInputEvent(time: .ms(1), type: 1, code: 200, value: 1)) == [.button(.select, .down, at: .ms(1))])
    }

    @Test func profilesMatchByPathOrNameFirstWins() {
        let a = EvdevProfile(match: .name("gpio_keys"), grab: false)
        let b = EvdevProfile(match: .path("/dev/input/event4"), stepsPerDetent: 4)
        let picked = EvdevProfile.pick(from: [a, b], path: "/dev/input/event4", deviceNumber: nil, name: "rotary@11")
        #expect(picked == b)
        #expect(EvdevProfile.pick(from: [a, b], path: "/x", deviceNumber: nil, name: "gpio_keys") == a)
        #expect(EvdevProfile.pick(from: [a, b], path: "/x", deviceNumber: nil, name: "other") == EvdevProfile())
    }

    @Test func openingSomethingThatIsNotAnEvdevNodeIsATypedError() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: EvdevError(call: "open", path: dir.path + "/event9", errno: ENOENT)) {
            try EvdevDevice(path: dir.path + "/event9")
        }
        try dir.write("event0")
        let error = #expect(throws: EvdevError.self) { try EvdevDevice(path: dir.path + "/event0") }
        #expect(error?.call == "libevdev_new_from_fd" && error?.isDeviceGone == false)
    }

    @Test func theWatcherReportsNodesThatAppearOrChangePermissions() async throws {
        let dir = try TemporaryDirectory()
        let names = Mutex<[String]>([])
        let watcher = try InputDirectoryWatcher(directory: dir.path)
        try watcher.start { name in names.withLock { $0.append(name) } }
        try dir.write("event7")
        #expect(chmod(dir.path + "/event7", 0o660) == 0)
        for _ in 0..<100 where names.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        watcher.stop()
        #expect(names.withLock { $0 }.prefix(2) == ["event7", "event7"], "IN_CREATE, then IN_ATTRIB")
    }

    @Test func inputSkipsNodesItCannotUseAndKeepsWatching() async throws {
        let dir = try TemporaryDirectory()
        try dir.write("event0")
        try dir.write("mouse0")
        #expect(EvdevInput.eventNodes(in: dir.path) == ["event0"])
        try dir.write("event10")
        try dir.write("event2")
        #expect(EvdevInput.eventNodes(in: dir.path) == ["event0", "event2", "event10"])
        let input = EvdevInput(configuration: .init(directory: dir.path))
        try input.start { _ in }
        try dir.write("event3")
        try await Task.sleep(for: .milliseconds(100))
        #expect(input.openDevices.isEmpty)
        input.stop()
    }
}

/// A fresh directory under /tmp, removed with its files when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/clickwheel-devices-XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw SystemCallError(call: "mkdtemp", detail: "/tmp", errno: errno) }
        path = String(cString: p)
    }

    /// Writes `contents` to `name` inside the directory.
    func write(_ name: String, _ contents: String = "") throws {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw SystemCallError(call: "open", detail: name, errno: errno) }
        defer { close(fd) }
        _ = contents.utf8CString.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
    }

    deinit {
        for name in EvdevInput.eventNodes(in: path) + ["mouse0"] { unlink(path + "/" + name) }
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}
