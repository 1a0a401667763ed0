/// Builds one frame: folds text through the charset and allocates up to 8 glyph slots.
struct FrameBuilder {
    var frame: Frame
    let charset: TextCharset
    /// The soonest time, in milliseconds after the frame's time, at which time alone may change it (a
    /// marquee step, the 4-row artist/album turn): nil while nothing on it moves with time.
    private(set) var changesInMS: Int64?

    init(_ geometry: DisplayGeometry, charset: TextCharset) {
        frame = Frame(columns: geometry.columns, rows: geometry.rows)
        self.charset = charset
    }

    var columns: Int { frame.columns }

    /// Notes that the frame may change `ms` milliseconds from now (the soonest such time is kept).
    mutating func mayChange(inMS ms: Int64?) {
        guard let ms else { return }
        let at = max(1, ms)
        changesInMS = min(changesInMS ?? at, at)
    }

    /// The characters of `text` as the display can show them.
    func chars(_ text: String) -> [Character] {
        Array(charset.fold(text))
    }

    /// Text as cells.
    func cells(_ text: String) -> [Frame.Cell] {
        chars(text).map { .char($0) }
    }

    /// A cell for `glyph`: its slot (allocated on first use), or its ASCII stand-in when all 8 are taken.
    mutating func glyph(_ glyph: Glyph) -> Frame.Cell {
        if let slot = frame.glyphs.firstIndex(of: glyph) { return .glyph(UInt8(slot)) }
        guard frame.glyphs.count < 8 else { return .char(glyph.ascii) }
        frame.glyphs.append(glyph)
        return .glyph(UInt8(frame.glyphs.count - 1))
    }

    /// `cells` cut or padded to exactly `width`.
    static func fit(_ cells: [Frame.Cell], width: Int) -> [Frame.Cell] {
        if cells.count >= width { return Array(cells.prefix(width)) }
        return cells + Array(repeating: .char(" "), count: width - cells.count)
    }

    /// Writes `left` and `right` on `row`, the right part flush right, the left cut to make room.
    mutating func write(row: Int, left: [Frame.Cell], right: [Frame.Cell] = []) {
        let right = Array(right.prefix(columns))
        let leftWidth = columns - right.count - (right.isEmpty ? 0 : 1)
        let line = Self.fit(left, width: max(0, leftWidth)) + (right.isEmpty ? [] : [.char(" ")]) + right
        frame.write(Self.fit(line, width: columns), row: row)
    }

    /// Writes a whole row.
    mutating func write(row: Int, _ cells: [Frame.Cell]) {
        frame.write(Self.fit(cells, width: columns), row: row)
    }

    /// A progress bar `width` cells wide filled to `fraction` (0…1), in fifths of a cell.
    /// Five cells for a rating of 0…10 (two per star): stars, a half star, then dots.
    mutating func stars(_ rating: Int) -> [Frame.Cell] {
        let r = max(0, min(10, rating))
        return (0..<5).map { i in
            let filled = r - i * 2
            if filled >= 2 { return glyph(.star) }
            if filled == 1 { return glyph(.halfStar) }
            return .char(charset.fold("·").first ?? ".")
        }
    }

    mutating func bar(fraction: Double, width: Int) -> [Frame.Cell] {
        let total = width * 5
        let filled = Int((min(1, max(0, fraction)) * Double(total)).rounded(.down))
        return (0..<width).map { i in
            let n = min(5, max(0, filled - i * 5))
            return n == 0 ? .char(charset.fold("·").first ?? ".") : glyph(.bar(n))
        }
    }
}
