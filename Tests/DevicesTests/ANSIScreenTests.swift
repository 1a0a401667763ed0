import ClickWheelCore
import Devices
import Testing

@Suite struct ANSIScreenTests {
    let renderer = LCDRenderer(geometry: DisplayGeometry(columns: 16, rows: 3))

    func frame(_ title: String, _ line: String) -> Frame {
        renderer.render(.text(title: title, lines: [line]), now: .zero)
    }

    @Test func startDrawsABoxAndTheFirstFrameWhole() {
        var screen = ANSIScreen(geometry: renderer.geometry)
        let start = screen.start(note: "playback: null output")
        #expect(start.contains("\u{1B}[2J") && start.contains("\u{1B}[?25l"))
        #expect(start.contains("┌" + String(repeating: "─", count: 16) + "┐"))
        #expect(start.contains("playback: null output"))
        let first = screen.draw(frame("Music", "Artists"))
        #expect(first == "\u{1B}[2;2HMusic           \u{1B}[3;2HArtists         \u{1B}[4;2H                ")
    }

    @Test func laterFramesWriteOnlyChangedRuns() {
        var screen = ANSIScreen(geometry: renderer.geometry)
        _ = screen.start()
        _ = screen.draw(frame("Music", "Artists"))
        #expect(screen.draw(frame("Music", "Albums")) == "\u{1B}[3;3Hlbums ")
        #expect(screen.draw(frame("Music", "Albums")) == "")
    }

    @Test func wideCharactersTakeTwoColumnsSoTheRowKeepsItsWidth() {
        var screen = ANSIScreen(geometry: renderer.geometry)
        _ = screen.start()
        let out = screen.draw(frame("Home 🏠 x", "東京"))
        // Rows with wide characters are laid out in terminal columns: 16 per row, as the box has.
        #expect(out.contains("\u{1B}[2;2HHome 🏠 x      "))
        #expect(out.contains("\u{1B}[3;2H東京            "))
        // A later change in such a row redraws the row whole.
        #expect(screen.draw(frame("Home 🏠 y", "東京")) == "\u{1B}[2;2HHome 🏠 y       ")
    }

    @Test func dimmingRedrawsTheLastFrameFaint() {
        var screen = ANSIScreen(geometry: renderer.geometry)
        _ = screen.start()
        _ = screen.draw(frame("Music", "Artists"))
        let dim = screen.setDimmed(true)
        #expect(dim.hasPrefix("\u{1B}[2m") && dim.contains("Artists") && dim.hasSuffix("\u{1B}[0m"))
        #expect(screen.setDimmed(true) == "")
        #expect(screen.finish().contains("\u{1B}[?25h"))
    }
}
