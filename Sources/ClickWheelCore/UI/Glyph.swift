/// The custom characters a screen may use: icons and progress-bar cells.
///
/// Character LCDs load up to 8 of them into CGRAM per frame (the bitmap); a terminal shows the
/// Unicode stand-in; when a frame needs more than 8, the renderer falls back to `ascii`.
public enum Glyph: Hashable, Sendable {
    case play, pause, stop, shuffle, repeatAll, repeatOne, lock, speaker
    /// The iPod's "New" dot before an unplayed podcast episode (never played, no place remembered), a
    /// show with unplayed episodes, an unbegun book. One rule on every display: a filled dot drawn from
    /// CGRAM on an HD44780 (not ROM A00's middle dot 0xA5: one pixel, too small to read as a mark),
    /// U+2022 on UTF-8 displays (terminal, web remote), "*" where a frame has used all eight CGRAM
    /// slots and on LCDproc (which is given the ASCII stand-ins of glyphs).
    case unplayed
    /// Begun and not finished (a place is remembered).
    case partlyPlayed
    /// A rating's star, and its half star.
    case star, halfStar
    /// A progress-bar cell with `columns` of its 5 pixel columns filled (1…5).
    case bar(Int)
    /// The cells of the big clock's digits (`BigDigits`): a full cell, its top third, its bottom third,
    /// both (the middle bar of 2, 3, 5, 6, 8, 9), and the colon's two dots.
    case bigFull, bigTop, bigBottom, bigTopBottom, colonUpper, colonLower
    /// The alarm bell (a set alarm on the Clock, the ringing screen).
    case bell

    /// What a UTF-8 display draws.
    public var unicode: Character {
        switch self {
        case .play: "▶"
        case .pause: "‖"
        case .stop: "■"
        case .shuffle: "⤮"
        case .repeatAll: "↻"
        case .repeatOne: "①"
        case .unplayed: "•"
        case .partlyPlayed: "◐"
        case .lock: "⚿"
        case .speaker: "♪"
        case .star: "★"
        case .halfStar: "½"
        case .bar(let n): ["▏", "▎", "▌", "▊", "█"][max(1, min(5, n)) - 1]
        case .bigFull: "█"
        case .bigTop: "▀"
        case .bigBottom: "▄"
        case .bigTopBottom: "═"
        case .colonUpper, .colonLower: "▪"
        // U+237E BELL SYMBOL: one column wide in a terminal, unlike the emoji ⏰.
        case .bell: "⍾"
        }
    }

    /// What is drawn when no glyph slot is left (plain ASCII, safe on every ROM).
    public var ascii: Character {
        switch self {
        case .play: ">"
        case .pause: "="
        case .stop: "."
        case .shuffle: "S"
        case .repeatAll: "R"
        case .repeatOne: "1"
        case .unplayed: "*"
        case .partlyPlayed: "+"
        case .lock: "L"
        case .speaker: "V"
        case .star: "*"
        case .halfStar: "+"
        case .bar(let n): n >= 3 ? "#" : "-"
        case .bigFull: "#"
        case .bigTop: "\""
        case .bigBottom: "_"
        case .bigTopBottom: "="
        case .colonUpper, .colonLower: "."
        case .bell: "A"
        }
    }

    /// The 5×8 bitmap for a CGRAM slot, top row first, bit 4 = leftmost pixel.
    public var bitmap: [UInt8] {
        switch self {
        case .play: [0x10, 0x18, 0x1C, 0x1E, 0x1C, 0x18, 0x10, 0x00]
        case .pause: [0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x1B, 0x00]
        case .stop: [0x00, 0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0x00, 0x00]
        case .shuffle: [0x00, 0x19, 0x06, 0x04, 0x0C, 0x13, 0x00, 0x00]
        case .repeatAll: [0x01, 0x1F, 0x11, 0x00, 0x11, 0x1F, 0x10, 0x00]
        case .repeatOne: [0x01, 0x1F, 0x15, 0x04, 0x15, 0x1F, 0x10, 0x00]
        case .unplayed: [0x00, 0x00, 0x0E, 0x1F, 0x1F, 0x0E, 0x00, 0x00]
        case .partlyPlayed: [0x00, 0x00, 0x0E, 0x19, 0x19, 0x0E, 0x00, 0x00]
        case .lock: [0x0E, 0x11, 0x11, 0x1F, 0x1B, 0x1B, 0x1F, 0x00]
        case .speaker: [0x01, 0x03, 0x1F, 0x1F, 0x1F, 0x03, 0x01, 0x00]
        case .star: [0x04, 0x04, 0x1F, 0x0E, 0x0A, 0x11, 0x00, 0x00]
        case .halfStar: [0x04, 0x04, 0x1C, 0x0C, 0x08, 0x10, 0x00, 0x00]
        case .bar(let n):
            Array(repeating: UInt8((0x1F << (5 - max(1, min(5, n)))) & 0x1F), count: 7) + [0x00]
        case .bigFull: Array(repeating: 0x1F, count: 8)
        case .bigTop: [0x1F, 0x1F, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00]
        case .bigBottom: [0x00, 0x00, 0x00, 0x00, 0x00, 0x1F, 0x1F, 0x1F]
        case .bigTopBottom: [0x1F, 0x1F, 0x1F, 0x00, 0x00, 0x00, 0x1F, 0x1F]
        case .colonUpper: [0x00, 0x00, 0x00, 0x00, 0x0E, 0x0E, 0x0E, 0x00]
        case .colonLower: [0x00, 0x0E, 0x0E, 0x0E, 0x00, 0x00, 0x00, 0x00]
        case .bell: [0x04, 0x0E, 0x0E, 0x0E, 0x1F, 0x00, 0x04, 0x00]
        }
    }
}
