/// The characters a display can show, and their bytes: UTF-8 (terminal), Latin-1 (LCDproc), or the
/// HD44780's A00 ROM.
///
/// The renderer folds every character of a frame through `fold`, so a frame holds only characters
/// the display has; drivers turn them into bytes with `byte(for:)`. A00 keeps ä ö ü ß µ ° ñ (its
/// ROM has them), transliterates other accents, avoids `\` and `~` (0x5C is ¥ and 0x7E is → there)
/// and shows `?` for what it cannot spell.
public enum TextCharset: String, Hashable, Sendable, CaseIterable {
    case utf8
    case latin1
    case hd44780A00

    /// `text` spelled with characters this charset has.
    public func fold(_ text: String) -> String {
        var out = ""
        for c in text { out += fold(c) }
        return out
    }

    /// One character spelled with characters this charset has (possibly several, such as ß → ss).
    public func fold(_ c: Character) -> String {
        switch self {
        case .utf8:
            return c.isASCII && !c.isPrintableASCII ? " " : String(c)
        case .latin1:
            if let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1, scalar.value >= 0xA0,
                scalar.value <= 0xFF
            {
                return String(c)
            }
            if c == "›" { return "»" }
            if c == "‹" { return "«" }
            return c.isASCII ? (c.isPrintableASCII ? String(c) : " ") : (Transliteration.ascii(c) ?? "?")
        case .hd44780A00:
            if Self.a00Extras[c] != nil { return String(c) }
            if c == "\\" { return "/" }
            if c == "~" { return "-" }
            if c.isASCII { return c.isPrintableASCII ? String(c) : " " }
            if c == "›" { return "→" }
            if c == "‹" { return "←" }
            let ascii = Transliteration.ascii(c) ?? "?"
            return ascii.replacing("\\", with: "/").replacing("~", with: "-")
        }
    }

    /// The bytes a display gets for a character `fold` produced (UTF-8 may need several).
    public func bytes(for c: Character) -> [UInt8] {
        switch self {
        case .utf8:
            return Array(String(c).utf8)
        case .latin1:
            guard let v = c.unicodeScalars.first?.value, v <= 0xFF else { return [0x3F] }
            return [UInt8(v)]
        case .hd44780A00:
            if let b = Self.a00Extras[c] { return [b] }
            guard let v = c.asciiValue, v >= 0x20, v < 0x7F, v != 0x5C, v != 0x7E else { return [0x3F] }
            return [v]
        }
    }

    /// Non-ASCII characters of the A00 ROM that tags use (RPLCD's hd44780_a00 table).
    static let a00Extras: [Character: UInt8] = [
        "ä": 0xE1, "ö": 0xEF, "ü": 0xF5, "ß": 0xE2, "µ": 0xE4, "°": 0xDF, "ñ": 0xEE, "→": 0x7E, "←": 0x7F,
        "█": 0xFF, "¥": 0x5C, "·": 0xA5,
    ]
}

extension Character {
    /// True for U+0020…U+007E.
    var isPrintableASCII: Bool {
        guard let v = asciiValue else { return false }
        return v >= 0x20 && v < 0x7F
    }
}
