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
        for run in frame.changes(from: last) {
            out += move(row: run.row + 1, column: run.column + 1)
            for cell in run.cells {
                switch cell {
                case .char(let c): out.append(c)
                case .glyph(let slot): out.append(frame.glyphs[Int(slot)].unicode)
                }
            }
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

    /// A cursor move to a cell of the box (row 0 and column 0 are the border).
    private func move(row: Int, column: Int) -> String {
        Self.escape + "\(origin.row + row);\(origin.column + column)H"
    }
}
