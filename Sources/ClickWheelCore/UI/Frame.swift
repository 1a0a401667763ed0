/// What a text display shows: rows of cells plus the custom glyphs they use. Plain, diffable data.
///
/// Text cells hold characters the display's charset can show (the renderer has folded them);
/// glyph cells refer to a slot of `glyphs` (at most 8). Drivers compare two frames with `changes`
/// and write only what differs.
public struct Frame: Hashable, Sendable {
    public enum Cell: Hashable, Sendable {
        case char(Character)
        case glyph(UInt8)
    }

    /// A run of changed cells on one row, for drivers that write from a cursor position.
    public struct Run: Hashable, Sendable {
        public var row: Int
        public var column: Int
        public var cells: [Cell]
    }

    public let columns: Int
    public let rows: Int
    /// Row-major, `columns × rows` cells.
    public private(set) var cells: [Cell]
    /// The custom glyphs by slot.
    public internal(set) var glyphs: [Glyph]
    /// A big digit of the Clock (`BigDigits`) whose cells the frame also holds as glyphs: a display with
    /// big numbers of its own (LCDd's `num` widget) draws these instead of those cells.
    public struct BigDigit: Hashable, Sendable {
        /// Its top-left cell (it covers `row` and `row + 1`).
        public var row: Int
        public var column: Int
        /// 0…9, or 10 for the colon (LCDd's numbering).
        public var digit: Int
    }

    /// The big digits on the frame, left to right (empty but on the Clock).
    public internal(set) var bigDigits: [BigDigit] = []

    /// A blank frame.
    public init(columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0)
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: .char(" "), count: columns * rows)
        glyphs = []
    }

    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// Writes `line` into `row` from `column`, cut at the right edge.
    mutating func write(_ line: [Cell], row: Int, column: Int = 0) {
        for (i, cell) in line.enumerated() where column + i < columns && column + i >= 0 {
            self[row, column + i] = cell
        }
    }

    /// Row `row` as text, glyphs drawn as their Unicode stand-ins.
    public func text(row: Int) -> String {
        String(
            (0..<columns).map { c in
                switch self[row, c] {
                case .char(let ch): ch
                case .glyph(let slot): glyphs[Int(slot)].unicode
                }
            })
    }

    /// The whole frame as lines of text (for goldens, logs and `ctl screen`).
    public var lines: [String] { (0..<rows).map(text(row:)) }

    /// The runs of cells that differ from `old` (everything when `old` is nil or another size, or
    /// when a glyph slot used by the cell was redefined).
    public func changes(from old: Frame?) -> [Run] {
        var runs: [Run] = []
        for r in 0..<rows {
            var c = 0
            while c < columns {
                guard differs(from: old, row: r, column: c) else {
                    c += 1
                    continue
                }
                var run = Run(row: r, column: c, cells: [])
                while c < columns && differs(from: old, row: r, column: c) {
                    run.cells.append(self[r, c])
                    c += 1
                }
                runs.append(run)
            }
        }
        return runs
    }

    private func differs(from old: Frame?, row: Int, column: Int) -> Bool {
        guard let old, old.columns == columns, old.rows == rows else { return true }
        let new = self[row, column]
        if new != old[row, column] { return true }
        if case .glyph(let slot) = new {
            let s = Int(slot)
            return s >= old.glyphs.count || old.glyphs[s] != glyphs[s]
        }
        return false
    }
}
