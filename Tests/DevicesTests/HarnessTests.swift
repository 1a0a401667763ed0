import ClickWheelCore
import Devices
import Evdev
import Synchronization
import Testing

/// The hardware harnesses (`debug lcd`, `debug input`) without hardware: the pattern on the HD44780
/// model, the debugger's lines. The debugger against a replayed device runs under umockdev.
@Suite struct HarnessTests {
    @Test(arguments: [DisplayGeometry(columns: 16, rows: 2), DisplayGeometry(columns: 20, rows: 4)])
    func theTestPatternFillsTheDisplayAndLoadsEveryGlyph(geometry: DisplayGeometry) throws {
        let steps = LCDTestPattern.steps(geometry: geometry, charset: .hd44780A00)
        #expect(
            steps[0].frame.text(row: 0) == String("1234567890123456789012345678901234567890".prefix(geometry.columns)))
        #expect(steps[0].frame.text(row: geometry.rows - 1).hasPrefix("\(geometry.rows)"))
        #expect(LCDTestPattern.glyphPages.allSatisfy { $0.count <= 8 })
        #expect(LCDTestPattern.glyphPages.joined().count == 15)
        let model = HD44780Model()
        let writer = HD44780Writer(
            sink: model, geometry: geometry, now: { Timestamp(microseconds: model.now) },
            sleep: { model.now += Int64($0) })
        var pagesChecked = 0
        for step in steps {
            try writer.draw(step.frame)
            guard step.note.hasPrefix("custom glyphs") else { continue }
            for (slot, glyph) in step.frame.glyphs.enumerated() { #expect(model.glyph(slot) == glyph.bitmap) }
            #expect(model.codes(row: 1, columns: geometry.columns)[0] == 0, "slot 0 drawn in the first cell")
            pagesChecked += 1
        }
        #expect(pagesChecked == LCDTestPattern.glyphPages.count)
        #expect(model.text(row: 0, columns: geometry.columns).hasPrefix("Scroll test"))
        #expect(model.violations.isEmpty)
    }

    @Test func theTestPatternRunsOnADisplayAndLogsEachStep() throws {
        let model = HD44780Model()
        model.now = 100_000
        let display = try ThreadedDisplay(hd44780: model, geometry: DisplayGeometry(columns: 16, rows: 2))
        var notes: [String] = []
        try LCDTestPattern.run(on: display, log: { notes.append($0) }, sleepMS: { _ in })
        #expect(display.flush())
        #expect(notes.first?.hasPrefix("ruler") == true && notes.last == "backlight off, then on")
        #expect(model.backlight && model.text(row: 0, columns: 16).hasPrefix("Scroll test"))
        display.close()
    }

    @Test func debuggerLinesNameTheEventAndWhatItDecodedTo() {
        let o = EvdevObservation(
            path: "/dev/input/event0",
            event: EvdevEvent(seconds: 100, microseconds: 40000, type: 2, code: 0, value: 1),
            time: .ms(5), decoded: [.wheel(steps: 1, at: .ms(5))])
        #expect(InputDebugger.line(for: o) == "event0  100.040000 EV_REL REL_X 1  → wheel +1")
        let key = EvdevObservation(
            path: "/dev/input/event1",
            event: EvdevEvent(seconds: 101, microseconds: 5, type: 1, code: 28, value: 1, fromSync: true),
            time: .ms(5), decoded: [.button(.select, .down, at: .ms(5))])
        #expect(InputDebugger.line(for: key) == "event1  101.000005 EV_KEY KEY_ENTER 1 (sync)  → select down")
    }

    @Test(.enabled(if: EvdevMock.has("debugger"), EvdevMock.skipNote))
    func debuggerPrintsEventsAndGesturesOfAReplayedButtonBoard() async throws {
        let lines = Mutex<[String]>([])
        let nodes = InputDebugger.nodes(in: EvdevMock.directory!)
        #expect(InputDebugger.describe(paths: nodes).first?.contains("\"gpio_keys\"") == true)
        let debugger = InputDebugger(configuration: .init(directory: EvdevMock.directory!, hotplug: false)) { line in
            lines.withLock { $0.append(line) }
        }
        try debugger.start()
        defer { debugger.stop() }
        for _ in 0..<1000 where !lines.withLock({ $0.contains { $0.contains("release playPause") } }) {
            try await Task.sleep(for: .milliseconds(20))
            debugger.tick()
        }
        let printed = lines.withLock { $0 }
        #expect(printed.first == "reading \(EvdevMock.directory!)/event1")
        for g in ["click select", "click menu", "click next", "click previous", "hold playPause", "release playPause"] {
            #expect(printed.contains("  gesture: \(g)"), "\(g)")
        }
        #expect(printed.contains { $0.hasPrefix("event1  ") && $0.hasSuffix("EV_KEY KEY_ENTER 1  → select down") })
    }
}
