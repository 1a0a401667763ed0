/// The size of a character display, in columns and rows (16x2, 20x4, 40x4, or a terminal box).
public struct DisplayGeometry: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        precondition(columns >= 8 && rows >= 1, "a display needs at least 8 columns and 1 row")
        self.columns = columns
        self.rows = rows
    }

    /// Reads "16x2" (as `--lcd` takes it); nil when malformed or too small.
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 8, c <= 200, r >= 1, r <= 60
        else { return nil }
        self.init(columns: c, rows: r)
    }

    /// True when a title row fits above the list (3 rows or more); smaller displays use a compact layout.
    public var hasTitleRow: Bool { rows >= 3 }

    /// How many list lines are visible at once.
    public var listRows: Int { hasTitleRow ? rows - 1 : 1 }

    public var description: String { "\(columns)x\(rows)" }
}
