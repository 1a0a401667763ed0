public import ClickWheelCore

/// Turns frames into ANSI escape sequences for a terminal: a box around the display, then only the
/// cells that changed, each run from one cursor move. Pure; `TerminalDisplay` writes the result.
public struct ANSIScreen: Sendable {
    public let geometry: DisplayGeometry
    /// Where the box's top-left corner sits (1-based terminal row and column).
    public var origin: (row: Int, column: Int) = (1, 1)
    private var last: Frame?
    private var dimmed = false

    public init(geometry: DisplayGeometry) {
        self.geometry = geometry
    }

    static let escape = "\u{1B}["

    /// The sequence that clears the screen, hides the cursor and draws the box (call first).
    public mutating func start(note: String? = nil) -> String {
        last = nil
        let horizontal = String(repeating: "─", count: geometry.columns)
        var out = Self.escape + "?25l" + Self.escape + "2J"
        out += move(row: 0, column: 0) + "┌" + horizontal + "┐"
        for r in 1...geometry.rows {
            out += move(row: r, column: 0) + "│" + String(repeating: " ", count: geometry.columns) + "│"
        }
        out += move(row: geometry.rows + 1, column: 0) + "└" + horizontal + "┘"
        if let note { out += move(row: geometry.rows + 2, column: 0) + note }
        return out
    }

    /// The sequence that shows `frame`, changed runs only (everything after `start` or a dim change).
    public mutating func draw(_ frame: Frame) -> String {
        precondition(frame.columns == geometry.columns && frame.rows == geometry.rows, "frame of another size")
        var out = dimmed ? Self.escape + "2m" : ""
        var redrawn = Set<Int>()
        for run in frame.changes(from: last) {
            // A row with wide characters (CJK, emoji: two terminal columns each) is redrawn whole, laid
            // out in terminal columns and cut at the box's width, so the border stays put.
            if Self.hasWide(frame, row: run.row) || last.map({ Self.hasWide($0, row: run.row) }) == true {
                if redrawn.insert(run.row).inserted { out += drawWideRow(frame, row: run.row) }
                continue
            }
            out += move(row: run.row + 1, column: run.column + 1)
            for cell in run.cells { out.append(Self.character(cell, frame)) }
        }
        if dimmed { out += Self.escape + "0m" }
        last = frame
        return out
    }

    /// The sequence that redraws the last frame dimmed (backlight off) or normal.
    public mutating func setDimmed(_ on: Bool) -> String {
        guard on != dimmed else { return "" }
        dimmed = on
        guard let frame = last else { return "" }
        last = nil
        return draw(frame)
    }

    /// The sequence that leaves the terminal as it was: cursor below the box and visible, attributes reset.
    public func finish() -> String {
        Self.escape + "0m" + move(row: geometry.rows + 3, column: 0) + Self.escape + "?25h\n"
    }

    private func drawWideRow(_ frame: Frame, row: Int) -> String {
        var out = move(row: row + 1, column: 1)
        var used = 0
        for column in 0..<frame.columns {
            let c = Self.character(frame[row, column], frame)
            let width = Self.isWide(c) ? 2 : 1
            if used + width > geometry.columns { break }
            out.append(c)
            used += width
        }
        return out + String(repeating: " ", count: geometry.columns - used)
    }

    static func character(_ cell: Frame.Cell, _ frame: Frame) -> Character {
        switch cell {
        case .char(let c): c
        case .glyph(let slot): frame.glyphs[Int(slot)].unicode
        }
    }

    static func hasWide(_ frame: Frame, row: Int) -> Bool {
        (0..<frame.columns).contains { column in
            if case .char(let c) = frame[row, column] { return isWide(c) }
            return false
        }
    }

    /// Whether a terminal draws `c` two columns wide (East Asian wide and fullwidth forms, emoji).
    static func isWide(_ c: Character) -> Bool {
        guard let s = c.unicodeScalars.first, s.value >= 0x1100 else { return false }
        if s.properties.isEmojiPresentation { return true }
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// A cursor move to a cell of the box (row 0 and column 0 are the border).
    private func move(row: Int, column: Int) -> String {
        Self.escape + "\(origin.row + row);\(origin.column + column)H"
    }
}
