import ClickWheelCore
import Devices
import Testing

/// The real reader (libevdev through `EvdevInput`) on umockdev's fake nodes replaying the project's
/// traces (Evdev/*.evemu, written by Evdev/mkmock.py). Run by contrib/ci/evdev-tests.sh, one device
/// per umockdev-run; skipped elsewhere.
@Suite struct EvdevReplayTests {
    @Test(.enabled(if: EvdevMock.has("rotary"), EvdevMock.skipNote))
    func rotaryEncoderWithBounceGivesOneStepPerDetent() async throws {
        let recorder = InputRecorder()
        let profile = EvdevProfile(match: .name("rotary@11"), stepsPerDetent: 2)
        let input = EvdevInput(
            configuration: .init(directory: EvdevMock.directory!, profiles: [profile], hotplug: false),
            observer: recorder.observer)
        try input.start(recorder.sink)
        defer { input.stop() }
        #expect(input.openDevices == [EvdevMock.directory! + "/event0"])
        try await recorder.wait(seconds: 45) { $0.count >= 16 }
        let steps = recorder.all.compactMap { e -> Int? in
            if case .wheel(let s, _) = e { return s }
            return nil
        }
        // Four detents clockwise, two back (each with a bounce that must cancel), then a spin of ten.
        #expect(steps == [1, 1, 1, 1, -1, -1] + Array(repeating: 1, count: 10))
        #expect(recorder.seen.filter { $0.event.type == 2 }.count == 6 * 4 + 20, "every REL_X event was read")
    }

    @Test(.enabled(if: EvdevMock.has("buttons"), EvdevMock.skipNote))
    func gpioKeyBoardGivesClicksAndAHold() async throws {
        let recorder = InputRecorder()
        let input = EvdevInput(configuration: .init(directory: EvdevMock.directory!, hotplug: false))
        try input.start(recorder.sink)
        defer { input.stop() }
        try await recorder.wait(seconds: 45) { events in
            events.contains { if case .button(.playPause, .up, _) = $0 { true } else { false } }
        }
        var gestures = ButtonGestures()
        var out: [ButtonGestures.Gesture] = []
        for case .button(let b, let phase, let at) in recorder.all { out += gestures.feed(b, phase, at: at) }
        #expect(
            out == [
                .click(.select), .click(.menu), .click(.next), .click(.previous), .hold(.playPause),
                .repeatHold(.playPause, count: 1), .repeatHold(.playPause, count: 2), .repeatHold(.playPause, count: 3),
                .released(.playPause),
            ])
        let downs = recorder.all.compactMap { e -> Timestamp? in
            if case .button(.playPause, _, let t) = e { return t }
            return nil
        }
        #expect(downs.count == 2 && downs[1].milliseconds(since: downs[0]) == 1250, "kernel times are kept")
    }

    @Test(.enabled(if: EvdevMock.has("touchpad"), EvdevMock.skipNote))
    func touchpadCirclesTapsRetouchAndADroppedBuffer() async throws {
        let recorder = InputRecorder()
        let input = EvdevInput(
            configuration: .init(directory: EvdevMock.directory!, only: [.name("ClickWheel Touchpad")], hotplug: false),
            observer: recorder.observer)
        try input.start(recorder.sink)
        defer { input.stop() }
        try await recorder.waitUntilQuiet(seconds: 45, minimum: 900)
        #expect(
            summarize(recorder.all) == [
                "wheel +24", "wheel -12", "menu down, menu up", "next down, next up", "select down, select up",
                "wheel +6", "wheel +6", "wheel +3", "wheel +3",
            ])
        #expect(recorder.seen.contains { $0.event.type == 0 && $0.event.code == 3 }, "the SYN_DROPPED was read")
    }
}
