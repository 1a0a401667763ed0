import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// Settings → Wheel against the pure engine, fed the way the service feeds it: every raw event of a
/// device goes through a real `WheelDecoder` as the evdev reader's would, and while the engine asks
/// for raw input (`Effect.rawInput`) the raw event is sent first, then what it decoded to. Time comes
/// with the events and the ticks (100 ms apart), so nothing here depends on the machine's speed.
@Suite struct WheelCalibrationMenuTests {
    static let wheelPath = "/dev/input/event0"
    static let buttonsPath = "/dev/input/event1"
    static let padPath = "/dev/input/event2"

    /// The service around the engine: per-device decoders, raw forwarding as the effects ask.
    struct Shell {
        var h: EngineHarness
        var decoders: [String: WheelDecoder] = [
            wheelPath: WheelDecoder(rotary: RotaryDecoder(), buttons: [:]),
            buttonsPath: WheelDecoder(rotary: nil),
            padPath: TraceFile.touchDecoder(),
        ]
        var forwarding = false

        init(_ geometry: DisplayGeometry) {
            var settings = Settings()
            settings.backlightSeconds = 0
            h = EngineHarness(library: InMemoryLibrary(tracks: []), geometry: geometry, settings: settings)
        }

        /// The screen's lines without their trailing blanks.
        var screen: [String] {
            h.screen.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
        }
        var effects: [Effect] { h.effects }
        var frame: Frame? { h.engine.frame }

        mutating func send(_ event: Event) {
            for effect in h.send(event) { if case .rawInput(let on) = effect { forwarding = on } }
        }

        mutating func click(_ b: Button) {
            let before = h.effects.count
            h.click(b)
            for effect in h.effects[before...] { if case .rawInput(let on) = effect { forwarding = on } }
        }

        mutating func wait(ms: Int64) {
            let before = h.effects.count
            h.wait(ms: ms)
            for effect in h.effects[before...] { if case .rawInput(let on) = effect { forwarding = on } }
        }

        /// Replays `events` of `device` from `afterMS` from now on, ticking in between, as a reader would.
        mutating func play(_ events: [RawInputEvent], device: String, afterMS: Int64 = 200) {
            guard let first = events.first?.time else { return }
            let shift = h.now.adding(ms: afterMS).microseconds - first.microseconds
            for e in events {
                var raw = e
                raw.time = Timestamp(microseconds: e.time.microseconds + shift)
                let gap = raw.time.milliseconds(since: h.now)
                if gap > 0 { wait(ms: gap) }
                if forwarding { send(.rawInput(raw, device: device)) }
                for decoded in decoders[device, default: WheelDecoder()].feed(raw) { send(.input(decoded)) }
            }
        }

        /// Main menu → Settings → Wheel (the last row), selected.
        mutating func openWheel() {
            h.turn(3)  // Music, Podcasts, Shuffle Songs, Settings
            h.click(.select)
            h.turn(15)
            #expect(h.screenText.contains("Wheel"))
            click(.select)
        }
    }

    static let enter: UInt16 = EvdevCode.keyEnter

    /// One detent of a reversed encoder giving 2 events per detent, then one turn of 20 detents.
    static let detent = CalibrationTests.detents(1, perDetent: 2, sign: -1)
    static let turn = CalibrationTests.detents(20, perDetent: 2, sign: -1)

    static func saves(_ effects: [Effect]) -> [CalibrationResult] {
        effects.compactMap { if case .saveWheel(let r) = $0 { r } else { nil } }
    }

    static func rawSwitches(_ effects: [Effect]) -> [Bool] {
        effects.compactMap { if case .rawInput(let on) = $0 { on } else { nil } }
    }

    // MARK: The whole flow, frame by frame

    @Test(arguments: ["16x2", "20x4"])
    func rotaryWalk(size: String) throws {
        var s = Shell(try #require(DisplayGeometry(size)))
        var walk = WalkRecord()
        s.openWheel()
        walk.snap("Settings → Wheel: one click", s.frame)
        #expect(s.forwarding, "raw input asked for")
        s.play(Self.detent, device: Self.wheelPath)
        s.wait(ms: 1600)
        walk.snap("the click read: one full turn", s.frame)
        // Both ways: asked again, with the reason.
        s.play(CalibrationTests.rel([(0, -1), (60, -1), (120, 1), (400, 1), (460, -1)]), device: Self.wheelPath)
        s.wait(ms: 1600)
        walk.snap("a turn both ways: the reason", s.frame)
        s.wait(ms: 2500)
        walk.snap("and the step again", s.frame)
        s.play(Self.turn, device: Self.wheelPath)
        s.wait(ms: 1600)
        walk.snap("the turn read: press", s.frame)
        s.play(CalibrationTests.key(Self.enter), device: Self.buttonsPath)
        s.wait(ms: 400)
        walk.snap("the summary", s.frame)
        #expect(!s.forwarding, "raw input no longer needed")
        let ticking = s.h.engine.wantsTicks()
        #expect(!ticking, "the summary waits without ticking")
        s.h.turn(1)
        walk.snap("Cancel under the cursor", s.frame)
        s.h.turn(-1)
        s.click(.select)
        walk.snap("Save: waiting for the service", s.frame)
        s.send(.wheelSaved(.saved, at: s.h.now.adding(ms: 20)))
        walk.snap("saved", s.frame)
        s.wait(ms: 3100)
        walk.snap("back on Settings", s.frame)
        Golden.check(walk.text, name: "walk-wheel-\(size).txt")

        let saves = Self.saves(s.effects)
        #expect(
            saves == [
                CalibrationResult(
                    wheel: .rotary(axis: EvdevCode.relX, stepsPerDetent: 2, eventsPerTurn: 40), inverted: true,
                    selectKey: Self.enter)
            ])
        #expect(Self.rawSwitches(s.effects) == [true, false])
        #expect(s.h.engine.wheelSetup == nil)
    }

    @Test(arguments: ["16x2", "20x4"])
    func touchRingWalk(size: String) throws {
        var s = Shell(try #require(DisplayGeometry(size)))
        var walk = WalkRecord()
        s.openWheel()
        let circle = try TraceFile.events("circle-450-cw.evemu")
        s.play(circle, device: Self.padPath)
        s.wait(ms: 1600)
        walk.snap("one circle read: once more", s.frame)
        s.play(circle, device: Self.padPath)
        s.wait(ms: 1600)
        walk.snap("the second agrees: press", s.frame)
        s.play(CalibrationTests.key(Self.enter), device: Self.buttonsPath)
        s.wait(ms: 400)
        walk.snap("the summary", s.frame)
        s.click(.select)
        s.send(.wheelSaved(.noConfigFile, at: s.h.now.adding(ms: 20)))
        walk.snap("no file: applied until restart", s.frame)
        s.click(.select)
        walk.snap("any press: back on Settings", s.frame)
        Golden.check(walk.text, name: "walk-wheel-ring-\(size).txt")

        let result = try #require(Self.saves(s.effects).first)
        guard case .touchRing(let ring, let degrees) = result.wheel else {
            Issue.record("not a ring: \(result)")
            return
        }
        #expect(abs(ring.centerX - 500) < 5 && abs(ring.centerY - 500) < 5 && abs(ring.radius - 400) < 5)
        #expect(degrees == 15 && !result.inverted && result.selectKey == Self.enter)
    }

    // MARK: Cancel and time-outs

    /// Menu at each step, and Cancel on the summary: back on Settings (Wheel selected), nothing saved.
    @Test(arguments: 0...4)
    func menuCancelsAtEveryStep(at step: Int) throws {
        var s = Shell(DisplayGeometry(columns: 20, rows: 4))
        s.openWheel()
        let settings = s.h.engine.settings
        let steps: [(events: [RawInputEvent], device: String)] = [
            (Self.detent, Self.wheelPath), (Self.turn, Self.wheelPath),
            (CalibrationTests.key(Self.enter), Self.buttonsPath),
        ]
        for (events, device) in steps.prefix(step) {
            s.play(events, device: device)
            s.wait(ms: 1600)
        }
        if step < 4 {
            s.click(.menu)
        } else {
            s.h.turn(1)
            s.click(.select)
        }
        #expect(s.h.engine.wheelSetup == nil)
        #expect(s.screen.contains { $0.hasPrefix(">Wheel") }, "\(s.screen)")
        #expect(Self.saves(s.effects).isEmpty)
        #expect(!s.forwarding)
        #expect(Self.rawSwitches(s.effects) == [true, false])
        #expect(s.h.engine.settings == settings)
    }

    /// The Menu key of the buttons board itself (raw while measuring, then decoded) cancels too.
    @Test func theMenuKeyOfTheDeviceCancelsDuringThePressStep() {
        var s = Shell(DisplayGeometry(columns: 16, rows: 2))
        s.openWheel()
        s.play(Self.detent, device: Self.wheelPath)
        s.wait(ms: 1600)
        s.play(Self.turn, device: Self.wheelPath)
        s.wait(ms: 1600)
        s.play(CalibrationTests.key(EvdevCode.keyMenu), device: Self.buttonsPath)
        #expect(s.h.engine.wheelSetup == nil)
        #expect(Self.saves(s.effects).isEmpty)
        #expect(s.screen.last?.hasPrefix(">Wheel") == true, "\(s.screen)")
    }

    @Test func nothingFor30SecondsEndsTheFlow() {
        var s = Shell(DisplayGeometry(columns: 16, rows: 2))
        s.openWheel()
        let ticking = s.h.engine.wantsTicks()
        #expect(ticking, "a measuring step times out")
        s.wait(ms: 29_900)
        #expect(s.screen == ["One click right", "or circle once"])
        s.wait(ms: 200)
        #expect(s.screen == ["No wheel input", "Nothing changed"])
        #expect(!s.forwarding)
        s.wait(ms: 3000)
        #expect(s.h.engine.wheelSetup == nil)
        #expect(s.screen.last?.hasPrefix(">Wheel") == true)
    }

    @Test func aSaveTheServiceCouldNotWriteSaysSo() {
        var s = Shell(DisplayGeometry(columns: 16, rows: 2))
        s.openWheel()
        s.play(Self.detent, device: Self.wheelPath)
        s.wait(ms: 1600)
        s.play(Self.turn, device: Self.wheelPath)
        s.wait(ms: 1600)
        s.play(CalibrationTests.key(Self.enter), device: Self.buttonsPath)
        s.wait(ms: 400)
        #expect(s.screen == ["2/click reversed", ">Save   Cancel"])
        s.click(.select)
        #expect(s.screen == ["Saving…", ""])
        s.send(.wheelSaved(.notWritten, at: s.h.now.adding(ms: 10)))
        #expect(s.screen == ["Can't save file:", "on until restart"])
    }

    // MARK: Input that cannot be measured

    /// The control socket's `wheel N` and `press select` send decoded steps: no raw event explains them.
    @Test func decodedInputFromElsewhereSaysUseTheWheel() {
        var s = Shell(DisplayGeometry(columns: 16, rows: 2))
        s.openWheel()
        s.h.turn(2)
        #expect(s.screen == ["Use the wheel", "itself"])
        s.wait(ms: 2600)
        #expect(s.screen == ["One click right", "or circle once"])
        s.click(.select)
        #expect(s.screen == ["Use the wheel", "itself"])
        #expect(s.h.engine.wheelSetup?.calibration.hasInput == false, "nothing was measured")
        // The wheel's own steps (raw, then decoded at the same time) measure without a hint.
        s.wait(ms: 2600)
        s.play(Self.detent, device: Self.wheelPath)
        #expect(s.screen == ["One click right", "or circle once"])
        s.wait(ms: 1600)
        #expect(s.screen == ["One full turn", "right"])
    }

    /// A press right after the turn ends it at once and counts as the press step.
    @Test func aPressRightAfterTheTurnEndsIt() {
        var s = Shell(DisplayGeometry(columns: 16, rows: 2))
        s.openWheel()
        s.play(Self.detent, device: Self.wheelPath)
        s.wait(ms: 1600)
        s.play(Self.turn, device: Self.wheelPath)
        s.play(CalibrationTests.key(Self.enter), device: Self.buttonsPath, afterMS: 300)
        s.wait(ms: 400)
        #expect(s.screen == ["2/click reversed", ">Save   Cancel"])
    }

    // MARK: After the flow

    /// Once the flow is over the wheel scrolls, Select selects and no raw input is asked for.
    @Test func normalWheelUseIsUntouchedAfterwards() {
        var s = Shell(DisplayGeometry(columns: 16, rows: 2))
        s.openWheel()
        s.play(Self.detent, device: Self.wheelPath)
        s.click(.menu)
        #expect(s.screen == ["Settings   16/19", ">Wheel         ›"])
        let count = s.effects.count
        s.play(CalibrationTests.detents(2, perDetent: 1, sign: -1), device: Self.wheelPath)
        #expect(s.screen == ["Settings   14/19", ">Shut Down     ›"])
        s.h.turn(-13)
        s.click(.select)
        #expect(s.screen.first?.contains("About") == true)
        #expect(Self.rawSwitches(Array(s.effects[count...])).isEmpty)
        #expect(s.h.engine.wheelSetup == nil)
    }
}
