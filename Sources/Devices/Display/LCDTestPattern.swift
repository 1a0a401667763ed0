public import ClickWheelCore
public import NamedThreads

/// The `clickwheel debug lcd` harness: a test pattern, every custom glyph and a scrolling line,
/// shown on whichever display is configured, to check wiring, ROM, contrast and CGRAM on a Pi.
///
/// `frames` is pure (tests look at it); `run` shows them in order on the caller's thread, sleeping
/// between steps (it is a harness, not part of the service's loop).
public enum LCDTestPattern {
    /// One step of the pattern: what to show, for how long, and what to tell the person watching.
    public struct Step: Sendable {
        public var frame: Frame
        public var holdMS: Int
        public var note: String
    }

    /// Every glyph the renderer may use, in pages of at most 8 (the CGRAM size).
    public static let glyphPages: [[Glyph]] = {
        let all: [Glyph] =
            [
                .play, .pause, .stop, .shuffle, .repeatAll, .repeatOne, .unplayed, .partlyPlayed, .lock, .speaker,
            ] + (1...5).map { .bar($0) }
        return stride(from: 0, to: all.count, by: 8).map { Array(all[$0..<min($0 + 8, all.count)]) }
    }()

    /// The steps for a display of `geometry` showing `charset`.
    public static func steps(geometry: DisplayGeometry, charset: TextCharset) -> [Step] {
        let columns = geometry.columns
        let rows = geometry.rows
        var steps: [Step] = []

        var ruler = Frame(columns: columns, rows: rows)
        for r in 0..<rows {
            let digits = (0..<columns).map { String(($0 + (r == 0 ? 1 : 0)) % 10) }.joined()
            ruler.put(r == 0 ? digits : "\(r + 1)" + digits.dropFirst(), row: r, charset: charset)
        }
        steps.append(Step(frame: ruler, holdMS: 2000, note: "ruler: every row full, row numbers at the left"))

        var block = Frame(columns: columns, rows: rows)
        let dark: Character = charset == .latin1 ? "#" : "█"
        for r in 0..<rows { block.put(String(repeating: dark, count: columns), row: r, charset: charset) }
        steps.append(Step(frame: block, holdMS: 1500, note: "all cells dark (contrast, dead pixels)"))

        let ascii = (0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) }
        var text = Frame(columns: columns, rows: rows)
        let sample = String(ascii) + " äöüß°µñ é→è"
        for r in 0..<rows {
            let start = r * columns
            guard start < sample.count else { break }
            text.put(String(sample.dropFirst(start)), row: r, charset: charset)
        }
        steps.append(Step(frame: text, holdMS: 3000, note: "character set (\(charset.rawValue))"))

        for (page, glyphs) in glyphPages.enumerated() {
            var f = Frame(columns: columns, rows: rows)
            f.put("Glyphs \(page + 1)/\(glyphPages.count):", row: 0, charset: charset)
            let row = rows > 1 ? 1 : 0
            for (i, glyph) in glyphs.enumerated() where i * 2 < columns {
                f.put(glyph, row: row, column: i * 2)
            }
            steps.append(Step(frame: f, holdMS: 2500, note: "custom glyphs page \(page + 1): \(glyphs)"))
        }

        let line = "  Scrolling: The quick brown fox jumps over the lazy dog  "
        for offset in 0..<line.count {
            var f = Frame(columns: columns, rows: rows)
            f.put("Scroll test", row: 0, charset: charset)
            let shifted = String((line + line).dropFirst(offset).prefix(columns))
            f.put(shifted, row: rows - 1, charset: charset)
            steps.append(Step(frame: f, holdMS: 150, note: offset == 0 ? "scrolling line" : ""))
        }
        return steps
    }

    /// Shows every step on `display` (backlight blinked once at the end); `log` gets each note.
    public static func run(
        on display: any TextDisplay, log: (String) -> Void,
        sleepMS: (Int) -> Void = { SystemSleep.microseconds($0 * 1000) }
    ) throws {
        try display.setBacklight(true)
        for step in steps(geometry: display.geometry, charset: display.charset) {
            if !step.note.isEmpty { log(step.note) }
            try display.show(step.frame)
            sleepMS(step.holdMS)
        }
        log("backlight off, then on")
        try display.setBacklight(false)
        sleepMS(1000)
        try display.setBacklight(true)
    }
}
