/// How one raw request line is cleaned and classified before it is tokenized.
///
/// MPD treats a line as a C string (everything after the first NUL is ignored) and strips
/// trailing "whitespace", which for MPD means every byte from 0x01 to 0x20, so CRLF clients work.
/// A line whose first byte is not a lowercase ASCII letter is taken for a misrouted (e.g. HTTP)
/// request and the connection is dropped without a reply.
public enum MPDRequestLine {
    /// Whether MPD counts `byte` as whitespace (0x01...0x20; NUL never survives `clean`).
    @inline(__always)
    public static func isWhitespace(_ byte: UInt8) -> Bool { byte <= 0x20 }

    /// Cuts `raw` at its first NUL and strips trailing whitespace.
    public static func clean(_ raw: [UInt8]) -> ArraySlice<UInt8> {
        var end = raw.firstIndex(of: 0) ?? raw.endIndex
        while end > raw.startIndex && isWhitespace(raw[end - 1]) {
            end -= 1
        }
        return raw[raw.startIndex..<end]
    }

    /// Whether a cleaned line may be processed at all: its first byte must be `a`...`z`.
    public static func startsLikeACommand(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first else { return false }
        return first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")
    }

    /// Whether a cleaned line is exactly `word` (MPD compares whole lines for `noidle` and the
    /// command-list keywords, so `noidle x` is not `noidle`).
    public static func line(_ line: ArraySlice<UInt8>, is word: StaticString) -> Bool {
        word.withUTF8Buffer { line.elementsEqual($0) }
    }
}
