import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

@testable import Devices

/// `LCDprocDisplay` against a real LCDd 0.5.9 with the text driver (contrib/ci/lcdd-tests.sh), read
/// back from the frames the driver prints. Serialized: they share one LCDd, and one restarts it.
@Suite(.serialized, .enabled(if: LCDd.isRunning, LCDd.skipNote))
struct LCDprocDisplayTests {
    private func frame(_ rows: [String], columns: Int, rowCount: Int) -> Frame {
        var f = Frame(columns: columns, rows: rowCount)
        for (i, text) in rows.enumerated() where i < rowCount { f.put(text, row: i, charset: .latin1) }
        return f
    }

    private func padded(_ s: String, _ n: Int) -> String {
        String((s + String(repeating: " ", count: n)).prefix(n))
    }

    @Test func showsLatin1TextAndSendsOnlyChangedRows() async throws {
        let display = try LCDprocDisplay(host: LCDd.host, port: LCDd.port)
        defer { display.close() }
        let (columns, rows) = LCDd.size
        #expect(display.geometry == DisplayGeometry(columns: columns, rows: rows), "the size comes from hello")
        var f = frame(["Café Müller", #"Say "hi" \o/"#], columns: columns, rowCount: rows)
        try display.show(f)
        let shown = try await LCDd.waitForFrame { $0.first == padded("Café Müller", columns) }
        #expect(shown?.first == padded("Café Müller", columns), "Latin-1 é and ü reach LCDd as one cell each")
        #expect(shown?[1] == padded(#"Say "hi" \o/"#, columns))
        let before = display.commandsSent
        try display.show(f)
        #expect(display.commandsSent == before, "an unchanged frame sends nothing")
        f.put("Row two changed!", row: 1, charset: .latin1)
        try display.show(f)
        #expect(display.commandsSent == before + 1, "one changed row, one widget_set")
        let next = try await LCDd.waitForFrame { $0[1].hasPrefix("Row two changed!") }
        #expect(next?[1].hasPrefix("Row two changed!") == true)
    }

    @Test func glyphsShowAsTheirASCIIStandInsAndTheBacklightSwitches() async throws {
        let display = try LCDprocDisplay(host: LCDd.host, port: LCDd.port)
        defer { display.close() }
        var f = Frame(columns: display.geometry.columns, rows: display.geometry.rows)
        f.put(.play, row: 0, column: 0)
        f.put(" Glyphs", row: 0, column: 1, charset: .latin1)
        try display.show(f)
        try display.setBacklight(false)
        try display.setBacklight(true)
        let shown = try await LCDd.waitForFrame { $0.first?.hasPrefix("> Glyphs") == true }
        #expect(shown?.first?.hasPrefix("> Glyphs") == true)
    }

    @Test func reconnectsAndRedrawsWhenLCDdRestarts() async throws {
        let display = try LCDprocDisplay(host: LCDd.host, port: LCDd.port, retryMS: 200)
        defer { display.close() }
        let (columns, rows) = LCDd.size
        try display.show(frame(["Before restart"], columns: columns, rowCount: rows))
        #expect(try await LCDd.waitForFrame { $0.first?.hasPrefix("Before restart") == true } != nil)
        try LCDd.restart()
        let after = frame(["After restart"], columns: columns, rowCount: rows)
        var shown: [String]?
        for _ in 0..<40 {
            try display.show(after)
            shown = try await LCDd.waitForFrame(seconds: 0.25) { $0.first?.hasPrefix("After restart") == true }
            if shown?.first?.hasPrefix("After restart") == true { break }
        }
        #expect(shown?.first?.hasPrefix("After restart") == true, "the client came back by itself")
    }

    @Test func theDebugLCDPatternRunsOnLCDd() async throws {
        let display = try LCDprocDisplay(host: LCDd.host, port: LCDd.port)
        defer { display.close() }
        var notes: [String] = []
        try LCDTestPattern.run(on: display, log: { notes.append($0) }, sleepMS: { _ in })
        #expect(notes.contains { $0.hasPrefix("custom glyphs page 2") })
        let shown = try await LCDd.waitForFrame { $0.first?.hasPrefix("Scroll test") == true }
        #expect(shown?.first?.hasPrefix("Scroll test") == true)
    }
}

/// The Clock's big digits through LCDd's own `num` widgets (the text driver draws them as ASCII art),
/// against a golden per display size; leaving the Clock deletes them.
@Suite(.serialized, .enabled(if: LCDd.isRunning, LCDd.skipNote))
struct LCDprocBigClockTests {
    static let golden = GoldenFrames(
        directory: URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Golden"))

    @Test func theBigClockIsDrawnWithNumWidgets() async throws {
        let display = try LCDprocDisplay(host: LCDd.host, port: LCDd.port)
        defer { display.close() }
        let renderer = LCDRenderer(geometry: display.geometry, charset: .latin1)
        // Friday 27 November 2026, 12:34 local, an alarm at 07:00.
        let time = LocalTime(localMS: 1_795_782_840_000)
        let clock = renderer.render(.clock(ClockView(time: time, twentyFour: true, nextAlarm: "07:00")), now: .zero)
        #expect(clock.bigDigits.map(\.digit) == [1, 2, 10, 3, 4])
        try display.show(clock)
        let shown = try await LCDd.waitForFrame { $0.first?.contains("_") == true && $0.first?.count ?? 0 > 0 }
        let text = (shown ?? []).map { "|\($0)|" }.joined(separator: "\n") + "\n"
        Self.golden.check(text, name: "lcdd-clock-\(display.geometry).txt")

        var menu = Frame(columns: display.geometry.columns, rows: display.geometry.rows)
        menu.put("Extras", row: 0, charset: .latin1)
        try display.show(menu)
        let after = try await LCDd.waitForFrame { $0.first?.hasPrefix("Extras") == true }
        let leftover = (after ?? []).dropFirst().joined().contains { $0 == "_" || $0 == "|" }
        #expect(after?.first?.hasPrefix("Extras") == true && !leftover, "the num widgets are gone: \(after ?? [])")
    }
}

/// LCDd frozen by SIGSTOP under a `ThreadedDisplay`. Its own suite: freezing LCDd would stall every other
/// LCDd test running beside it, so contrib/ci/lcdd-tests.sh runs it alone, after the others.
@Suite(.serialized, .enabled(if: LCDd.isRunning, LCDd.skipNote))
struct LCDdFreezeDisplayTests {
    private func frame(_ rows: [String], columns: Int, rowCount: Int) -> Frame {
        var f = Frame(columns: columns, rows: rowCount)
        for (i, text) in rows.enumerated() where i < rowCount { f.put(text, row: i, charset: .latin1) }
        return f
    }

    @Test func aFrozenLCDdNeverHoldsTheCallerAndGetsTheLatestFrameBack() async throws {
        let client = try LCDprocDisplay(host: LCDd.host, port: LCDd.port)
        let display = try ThreadedDisplay(client, name: "lcdproc-test")
        defer { display.close() }
        let (columns, rows) = LCDd.size
        try display.show(frame(["Before the freeze"], columns: columns, rowCount: rows))
        #expect(try await LCDd.waitForFrame { $0.first?.hasPrefix("Before the freeze") == true } != nil)
        try LCDd.freeze()
        defer { LCDd.resume() }
        // Each `show` only hands the frame over: with LCDd frozen, the writer waits out its receive
        // timeout on one frame while the rest replace one another in the mailbox.
        let before = display.counts
        for i in 0..<200 { try? display.show(frame(["Frozen \(i)"], columns: columns, rowCount: rows)) }
        // Past the connection's 2 s receive timeout: the writer drops the connection and retries.
        for i in 200..<230 {
            try? display.show(frame(["Frozen \(i)"], columns: columns, rowCount: rows))
            try await Task.sleep(for: .milliseconds(100))
        }
        let during = display.counts
        #expect(during.shown - before.shown == 230)
        #expect(during.written - before.written < 30, "frames coalesce while LCDd is away: \(before) -> \(during)")
        LCDd.resume()
        let shown = try await LCDd.waitForFrame(seconds: 15) { $0.first?.hasPrefix("Frozen 229") == true }
        #expect(shown?.first?.hasPrefix("Frozen 229") == true, "the latest frame reaches LCDd once it is back")
        #expect(display.counts.written - during.written < 10, "the latest frame, not every frame")
    }
}
