/// What LCDd sends, line by line: replies to commands, and lines that arrive on their own.
///
/// LCDd 0.5.9 answers each command with `success` or `huh? <why>` (a `screen_set` with N options
/// answers N times), `hello` with a `connect …` line, and interleaves `listen`/`ignore` (screen
/// shown or hidden), `key` and `menuevent` lines anywhere, even before the reply of the command
/// that caused them. Pure: `LCDprocConnection` feeds it bytes from its socket.
public struct LCDprocLines: Hashable, Sendable {
    /// One line, classified.
    public enum Line: Hashable, Sendable {
        case success
        case failure(String)
        /// The answer to `hello`: the display's size and the protocol version.
        case connect(LCDprocServerInfo)
        /// `noop complete`, `bye` and anything else that is a reply but not success.
        case other(String)
        /// `listen`, `ignore`, `key`, `menuevent`: not replies.
        case event(String)

        /// True for lines that answer a command (everything but events).
        public var isReply: Bool {
            if case .event = self { return false }
            return true
        }
    }

    /// The line being received, without its newline; at most `maxLine` bytes.
    private var buffer: [UInt8] = []
    /// The longest line kept: LCDd's lines are under 100 bytes; a peer that never sends a newline
    /// must not grow the buffer without end, so a longer line is cut here (the rest is dropped).
    public static let maxLine = 4096

    public init() {}

    /// Feeds received bytes; returns the complete lines among them, classified.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == 0x0A {
                var raw = buffer[...]
                if raw.last == 0x0D { raw = raw.dropLast() }
                // LCDd speaks ASCII; read bytes as Latin-1 so nothing is ever invalid.
                lines.append(Self.classify(String(raw.map { Character(Unicode.Scalar($0)) })))
                buffer.removeAll(keepingCapacity: true)
            } else if buffer.count < Self.maxLine {
                buffer.append(byte)
            }
        }
        return lines
    }

    /// Classifies one line without its newline.
    public static func classify(_ text: String) -> Line {
        let word = text.prefix { $0 != " " }
        switch word {
        case "success": return .success
        case "huh?": return .failure(String(text.dropFirst(4).drop { $0 == " " }))
        case "connect": return LCDprocServerInfo(text).map(Line.connect) ?? .other(text)
        case "listen", "ignore", "key", "menuevent": return .event(text)
        default: return .other(text)
        }
    }
}

/// What `hello` tells: `connect LCDproc 0.5.9 protocol 0.3 lcd wid 20 hgt 4 cellwid 5 cellhgt 8`.
public struct LCDprocServerInfo: Hashable, Sendable {
    /// The largest display taken: LCDd's drivers go to 40x4 (curses to a terminal's size); a size past
    /// these is a broken or hostile server (the display would allocate and send a row per line).
    public static let maxColumns = 256
    public static let maxRows = 64

    public var version: String
    public var protocolVersion: String
    public var columns: Int
    public var rows: Int
    public var cellWidth: Int
    public var cellHeight: Int

    /// Parses by keyword (the order and the protocol number vary between versions); nil without a size
    /// or with one past `maxColumns` x `maxRows`.
    public init?(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        func after(_ key: String) -> String? {
            guard let i = words.firstIndex(of: key), i + 1 < words.count else { return nil }
            return words[i + 1]
        }
        guard let w = after("wid").flatMap(Int.init), let h = after("hgt").flatMap(Int.init),
            (1...Self.maxColumns).contains(w), (1...Self.maxRows).contains(h)
        else {
            return nil
        }
        version = after("LCDproc") ?? "?"
        protocolVersion = after("protocol") ?? "?"
        columns = w
        rows = h
        cellWidth = after("cellwid").flatMap(Int.init) ?? 5
        cellHeight = after("cellhgt").flatMap(Int.init) ?? 8
    }
}

/// Quoting for LCDd's command line: a string argument in double quotes, `"` and `\` escaped.
public enum LCDprocQuote {
    /// `text` as one quoted argument. Scalar by scalar, not by Character: a quote or a backslash with a
    /// combining mark after it is one Character, and LCDd (reading bytes) must still see it escaped.
    /// A line break would end the command: it becomes a space.
    public static func quoted(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for c in text.unicodeScalars {
            if c == "\n" || c == "\r" {
                out.append(" ")
                continue
            }
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        out.append("\"")
        return String(out)
    }
}
