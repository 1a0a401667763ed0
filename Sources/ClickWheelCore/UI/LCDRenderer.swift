/// Lays screens out on a character display of any size, iPod-like.
///
/// With 3 rows or more the top row is a title row (screen name, position hint, lock and play-state
/// icons) above the list, whose selected line carries `>` and scrolls as a marquee when too long;
/// lines that open a submenu end in ›. On 1–2 row displays a compact layout shows the title row and
/// the selected line only. Pure: the same view and time give the same frame.
public struct LCDRenderer: Hashable, Sendable {
    public var geometry: DisplayGeometry
    public var charset: TextCharset
    public var marquee: Marquee

    public init(geometry: DisplayGeometry, charset: TextCharset = .utf8, marquee: Marquee = Marquee()) {
        self.geometry = geometry
        self.charset = charset
        self.marquee = marquee
    }

    /// The frame for `view` at time `now`.
    public func render(_ view: ScreenView, now: Timestamp) -> Frame {
        renderTimed(view, now: now).frame
    }

    /// The frame for `view` at time `now`, and the soonest time at which the same view may render
    /// differently (a marquee step, the artist/album turn, the position taking the progress line's place
    /// on two rows): nil when it never does. The frame is the same at every time before that one.
    public func renderTimed(_ view: ScreenView, now: Timestamp) -> (frame: Frame, changesAt: Timestamp?) {
        var b = FrameBuilder(geometry, charset: charset)
        switch view {
        case .list(let list): renderList(list, now: now, into: &b)
        case .nowPlaying(let np): renderNowPlaying(np, now: now, into: &b)
        case .text(let title, let lines): renderText(title: title, lines: lines, into: &b)
        case .clock(let clock): renderClock(clock, into: &b)
        case .level(let level):
            b.write(row: 0, left: b.cells(level.title), right: b.cells(level.value))
            b.write(row: 1, [b.glyph(.speaker), .char(" ")] + b.bar(fraction: level.fraction, width: geometry.columns - 2))
        }
        return (b.frame, b.changesInMS.map { now.adding(ms: $0) })
    }

    func icons(_ icons: StatusIcons, into b: inout FrameBuilder) -> [Frame.Cell] {
        var cells: [Frame.Cell] = []
        if icons.locked { cells.append(b.glyph(.lock)) }
        switch icons.status {
        case .playing: cells.append(b.glyph(.play))
        case .paused: cells.append(b.glyph(.pause))
        case .stopped: break
        }
        return cells
    }

    private func renderList(_ list: ListView, now: Timestamp, into b: inout FrameBuilder) {
        let iconCells = icons(list.icons, into: &b)
        var right: [Frame.Cell] = []
        if let letter = list.letter {
            right = b.cells("[\(letter)]")
        } else if list.total > 0 {
            right = b.cells("\(list.cursor + 1)/\(list.total)")
        }
        // The hint gives way to the title on narrow displays.
        if right.count + iconCells.count > geometry.columns / 2 && list.letter == nil { right = [] }
        if !right.isEmpty && !iconCells.isEmpty { right.append(.char(" ")) }
        b.write(row: 0, left: b.cells(list.title), right: right + iconCells)
        guard geometry.rows > 1 else { return }
        if list.total == 0 {
            let text = b.cells(list.emptyText)
            let pad = max(0, (geometry.columns - text.count) / 2)
            b.write(
                row: geometry.hasTitleRow ? geometry.rows / 2 : 1, left: Array(repeating: .char(" "), count: pad) + text
            )
            return
        }
        let first = geometry.hasTitleRow ? list.top : list.cursor
        for row in 1..<geometry.rows {
            let index = first + row - 1
            guard index >= list.top, index - list.top < list.lines.count else { break }
            let line = list.lines[index - list.top]
            let selected = index == list.cursor
            let elapsed = now.milliseconds(since: list.selectedSince)
            b.write(row: row, lineCells(line, selected: selected, elapsedMS: elapsed, into: &b))
        }
    }

    private func lineCells(_ line: ListLine, selected: Bool, elapsedMS: Int64, into b: inout FrameBuilder)
        -> [Frame.Cell]
    {
        var lead: Frame.Cell = .char(" ")
        if selected {
            lead = .char(">")
        } else if let mark = line.mark {
            lead = b.glyph(mark)
        }
        var suffix: [Frame.Cell] = []
        if let trailing = line.trailing { suffix += b.cells(" " + trailing) }
        if let stars = line.stars { suffix += [.char(" ")] + b.stars(stars) }
        if line.submenu { suffix += b.cells("›") }
        let width = max(0, geometry.columns - 1 - suffix.count)
        let text = b.chars(line.text)
        if selected { b.mayChange(inMS: marquee.millisecondsToNextStep(count: text.count, width: width, elapsedMS: elapsedMS)) }
        let shown = selected ? marquee.window(text, width: width, elapsedMS: elapsedMS) : Array(text.prefix(width))
        return [lead] + FrameBuilder.fit(shown.map { .char($0) }, width: width) + suffix
    }

    private func renderText(title: String, lines: [String], into b: inout FrameBuilder) {
        var row = 0
        if geometry.hasTitleRow || lines.isEmpty {
            b.write(row: 0, left: b.cells(title))
            row = 1
        }
        for line in lines where row < geometry.rows {
            b.write(row: row, left: b.cells(line))
            row += 1
        }
    }
}
