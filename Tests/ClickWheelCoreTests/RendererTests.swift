import ClickWheelCore
import Testing

@Suite struct RendererTests {
    let longLine = ListLine("A Very Long Song Title That Scrolls")

    func listView(lines: [ListLine], cursor: Int = 0, total: Int? = nil, status: Player.Status = .stopped)
        -> ScreenView
    {
        .list(
            ListView(
                title: "Songs", icons: StatusIcons(status: status), total: total ?? lines.count, cursor: cursor,
                top: 0, lines: lines, selectedSince: .zero))
    }

    @Test func selectedLongLineScrollsAsAMarqueeOthersAreCut() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 16, rows: 4))
        let view = listView(lines: [longLine, longLine, ListLine("Artists", submenu: true)])
        let start = r.render(view, now: .ms(0)).lines
        #expect(start[1] == ">A Very Long Son")
        #expect(start[2] == " A Very Long Son")
        #expect(start[3] == " Artists       ›")
        // Still paused at 1.4 s, then one character per 300 ms.
        #expect(r.render(view, now: .ms(1400)).lines[1] == ">A Very Long Son")
        #expect(r.render(view, now: .ms(1500 + 300 * 2)).lines[1] == ">Very Long Song ")
        #expect(r.render(view, now: .ms(1500 + 300 * 2)).lines[2] == " A Very Long Son")
    }

    @Test func titleRowCarriesPositionAndPlayState() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 20, rows: 4))
        let frame = r.render(listView(lines: [ListLine("One")], cursor: 0, total: 120, status: .playing), now: .zero)
        #expect(frame.lines[0] == "Songs        1/120 ▶")
        #expect(frame.glyphs == [.play])
    }

    @Test func compactLayoutShowsTitleAndSelectedLine() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 16, rows: 2))
        let lines = [ListLine("One"), ListLine("Two"), ListLine("Three")]
        let view = ScreenView.list(
            ListView(title: "Songs", icons: StatusIcons(), total: 3, cursor: 1, top: 1, lines: Array(lines[1...1])))
        #expect(r.render(view, now: .zero).lines == ["Songs        2/3", ">Two           " + " "])
    }

    @Test func a00FramesHoldOnlyRomCharacters() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 16, rows: 2), charset: .hd44780A00)
        let view = listView(lines: [ListLine("Beyoncé ~ Motörhead", submenu: true)])
        let frame = r.render(view, now: .zero)
        #expect(frame.lines[1] == ">Beyonce - Motö→")
        for row in 0..<frame.rows {
            for c in 0..<frame.columns {
                if case .char(let ch) = frame[row, c] {
                    #expect(TextCharset.hd44780A00.bytes(for: ch) != [0x3F] || ch == "?")
                }
            }
        }
    }

    @Test func atMostEightGlyphsAFrameThenAsciiStandIns() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 20, rows: 4))
        let np = NowPlayingView(
            position: 3, count: 12, title: "Title", artist: "Artist", album: "Album", elapsedMS: 61_000,
            durationMS: 200_000, icons: StatusIcons(status: .playing, locked: true), shuffle: .songs,
            repeatMode: .one)
        let frame = r.render(.nowPlaying(np), now: .zero)
        #expect(frame.glyphs.count <= 8)
        #expect(Set(frame.glyphs).count == frame.glyphs.count)
        #expect(frame.lines[0].hasPrefix("⚿▶ 3 of 12"))
        #expect(frame.lines[3].hasPrefix("1:01 ") && frame.lines[3].hasSuffix(" -2:19"))
    }

    @Test func progressBarFillsInFifthsOfACell() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 20, rows: 2))
        func bar(_ elapsed: Int) -> String {
            let np = NowPlayingView(
                position: 1, count: 1, title: "T", artist: "", album: "", elapsedMS: elapsed, durationMS: 90_000,
                icons: StatusIcons())
            return r.render(.nowPlaying(np), now: .zero).lines[1]
        }
        // 20 − "0:00 " − " -1:30" = 9 cells = 45 fifths; 1/3 of the track is 15 fifths = 3 cells.
        #expect(bar(30_000) == "0:30 ███······ -1:00")
        #expect(bar(32_000) == "0:32 ███▏····· -0:58")
        #expect(bar(0) == "0:00 ········· -1:30")
    }

    @Test func diffListsOnlyChangedRuns() {
        let r = LCDRenderer(geometry: DisplayGeometry(columns: 16, rows: 2))
        let a = r.render(listView(lines: [ListLine("Alpha")]), now: .zero)
        let b = r.render(listView(lines: [ListLine("Alps")]), now: .zero)
        #expect(a.changes(from: nil).count == 2)
        #expect(a.changes(from: a).isEmpty)
        let runs = b.changes(from: a)
        #expect(runs.count == 1)
        #expect(runs[0].row == 1 && runs[0].column == 4 && runs[0].cells == [.char("s"), .char(" ")])
    }

    @Test func geometryParsesLikeTheFlag() {
        #expect(DisplayGeometry("20x4") == DisplayGeometry(columns: 20, rows: 4))
        #expect(DisplayGeometry("40X4")?.columns == 40)
        #expect(DisplayGeometry("4x2") == nil)
        #expect(DisplayGeometry("wide") == nil)
    }
}
