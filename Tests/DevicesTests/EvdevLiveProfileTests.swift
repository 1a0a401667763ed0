import ClickWheelCore
import Devices
import Synchronization
import Testing

/// What Settings → Wheel's Save relies on in the real reader (libevdev through `EvdevInput`, on
/// umockdev's fake rotary encoder replaying Evdev/rotary.evemu): a device opened with one profile
/// decodes with the profile applied while it is open, and raw events reach a forwarding sink before
/// what they decode to. Run by contrib/ci/evdev-tests.sh (`live-profile`); skipped elsewhere.
@Suite struct EvdevLiveProfileTests {
    @Test(.enabled(if: EvdevMock.has("live-profile"), EvdevMock.skipNote))
    func aProfileAppliedWhileOpenChangesTheStepsAndRawEventsAreForwarded() async throws {
        let recorder = InputRecorder()
        // Opened as if uncalibrated: one event per detent (this encoder gives two).
        let input = EvdevInput(
            configuration: .init(
                directory: EvdevMock.directory!, profiles: [EvdevProfile(match: .name("rotary@11"))], hotplug: false))
        let raw = Mutex<[(String, RawInputEvent)]>([])
        // Raw and decoded in one list, to check their order.
        let order = Mutex<[String]>([])
        input.forwardRawEvents { path, event in
            raw.withLock { $0.append((path, event)) }
            if event.type == EvdevCode.evRel { order.withLock { $0.append("raw") } }
        }
        try input.start { event in
            recorder.sink(event)
            order.withLock { $0.append("decoded") }
        }
        defer { input.stop() }
        #expect(input.openDevices == [EvdevMock.directory! + "/event0"])
        // The trace's first movement comes 15 s after it starts: the calibration lands before it.
        input.apply(profiles: [EvdevProfile(match: .name("rotary@11"), stepsPerDetent: 2)])
        try await recorder.wait(seconds: 45) { $0.count >= 16 }
        let steps = recorder.all.compactMap { e -> Int? in
            if case .wheel(let s, _) = e { return s }
            return nil
        }
        // As `EvdevReplayTests` reads it with two events per detent from the start.
        #expect(steps == [1, 1, 1, 1, -1, -1] + Array(repeating: 1, count: 10))
        let rel = raw.withLock { $0 }.filter { $0.1.type == EvdevCode.evRel }
        #expect(rel.count == 6 * 4 + 20, "every REL_X event was forwarded")
        #expect(rel.allSatisfy { $0.0 == EvdevMock.directory! + "/event0" })
        let seq = order.withLock { $0 }
        #expect(seq.first == "raw" && seq.firstIndex(of: "decoded").map { $0 > 0 } == true)

        // Forwarding off: later events are decoded only.
        input.forwardRawEvents(to: nil)
    }
}
