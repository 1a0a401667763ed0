/// A read position inside one filter-expression argument, with MPD's lexical helpers.
///
/// The end of the bytes plays the part of C's terminating NUL. "Whitespace" is every byte up to
/// 0x20, as everywhere in MPD.
struct FilterCursor {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { index >= bytes.count }

    /// The current byte, or 0 at the end.
    var peek: UInt8 { atEnd ? 0 : bytes[index] }

    mutating func advance(_ count: Int = 1) {
        index = min(index + count, bytes.count)
    }

    mutating func skipWhitespace() {
        while !atEnd && bytes[index] <= 0x20 { index += 1 }
    }

    func hasPrefix(_ text: String) -> Bool {
        bytes[index...].starts(with: text.utf8)
    }

    func hasPrefixIgnoringCase(_ text: String) -> Bool {
        bytes.count - index >= text.utf8.count
            && zip(bytes[index...], text.utf8).allSatisfy { MPDArgument.lowercased($0) == MPDArgument.lowercased($1) }
    }

    /// A word of letters, `_` and `-` (a filter type or `AND`), then whitespace is skipped.
    mutating func word() throws(MPDError) -> String {
        let start = index
        while !atEnd, Self.isWordByte(bytes[index]) { index += 1 }
        guard index > start else { throw .argument("Word expected") }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        skipWhitespace()
        return word
    }

    /// A `"…"` or `'…'` string with backslash escapes, then whitespace is skipped.
    mutating func quoted() throws(MPDError) -> [UInt8] {
        let quote = peek
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw .argument("Quoted string expected")
        }
        index += 1
        var value: [UInt8] = []
        while peek != quote {
            if peek == UInt8(ascii: "\\") { index += 1 }
            guard !atEnd else { throw .argument("Closing quote not found") }
            value.append(bytes[index])
            index += 1
            guard value.count < 4096 else { throw .argument("Quoted value is too long") }
        }
        index += 1
        skipWhitespace()
        return value
    }

    /// Expects `)`, then skips whitespace.
    mutating func closeParenthesis() throws(MPDError) {
        guard peek == UInt8(ascii: ")") else { throw .argument("')' expected") }
        index += 1
        skipWhitespace()
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        let lowercased = MPDArgument.lowercased(byte)
        return (lowercased >= UInt8(ascii: "a") && lowercased <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
