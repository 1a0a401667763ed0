/// The big clock's font: each digit 3 cells wide and 2 rows tall, the colon 1 cell, drawn from six
/// custom glyphs (full cell, top bar, bottom bar, top and bottom bars, the colon's dots), so it fits an
/// HD44780's 8 CGRAM slots with two to spare (the bell, a play-state icon).
///
/// The frame also records where each big digit sits (`Frame.bigDigits`), so LCDd, whose string widgets
/// have no custom characters, can draw its own `num` widgets instead.
enum BigDigits {
    /// Width of a digit in cells.
    static let width = 3

    /// The top and bottom rows of digit 0…9 (nil: a blank cell).
    static func cells(of digit: Int) -> (top: [Glyph?], bottom: [Glyph?]) {
        let F = Glyph.bigFull, T = Glyph.bigTop, B = Glyph.bigBottom, M = Glyph.bigTopBottom
        switch digit {
        case 0: return ([F, T, F], [F, B, F])
        case 1: return ([T, F, nil], [B, F, B])
        case 2: return ([M, M, F], [F, B, B])
        case 3: return ([M, M, F], [B, B, F])
        case 4: return ([F, B, F], [nil, nil, F])
        case 5: return ([F, M, M], [B, B, F])
        case 6: return ([F, M, M], [F, B, F])
        case 7: return ([T, T, F], [nil, nil, F])
        case 8: return ([F, M, F], [F, B, F])
        default: return ([F, M, F], [B, B, F])
        }
    }

    /// The width of `text` ("12:34", " 7:05"; a space is a blank digit) laid out with a blank column
    /// between digits that are not beside the colon.
    static func layoutWidth(_ text: String) -> Int {
        var width = 0
        var previous: Character?
        for c in text {
            if let p = previous, p != ":", c != ":" { width += 1 }
            width += c == ":" ? 1 : Self.width
            previous = c
        }
        return width
    }
}

extension FrameBuilder {
    /// Draws `text` (digits, spaces for blank digits, one colon) in big digits on rows `row` and `row + 1`
    /// from `column`, and records each digit for displays that draw their own (`Frame.bigDigits`).
    mutating func bigDigits(_ text: String, row: Int, column: Int) {
        var x = column
        var previous: Character?
        for c in text {
            if let p = previous, p != ":", c != ":" { x += 1 }
            previous = c
            if c == ":" {
                frame[row, x] = glyph(.colonUpper)
                frame[row + 1, x] = glyph(.colonLower)
                frame.bigDigits.append(Frame.BigDigit(row: row, column: x, digit: 10))
                x += 1
                continue
            }
            if let d = c.wholeNumberValue {
                let (top, bottom) = BigDigits.cells(of: d)
                for i in 0..<BigDigits.width where x + i < frame.columns {
                    frame[row, x + i] = top[i].map { glyph($0) } ?? .char(" ")
                    frame[row + 1, x + i] = bottom[i].map { glyph($0) } ?? .char(" ")
                }
                frame.bigDigits.append(Frame.BigDigit(row: row, column: x, digit: d))
            }
            x += BigDigits.width
        }
    }
}
