/// Splits one cleaned request line into a command name and arguments, exactly as MPD 0.23 does.
///
/// - The name is `[a-z0-9_]+` up to whitespace (0x01...0x20) or the end; any other byte is
///   `Invalid word character`, after which the connection closes.
/// - Arguments are separated by runs of whitespace. An unquoted argument is any run of bytes above
///   0x20 except `"` and `'` (`Invalid unquoted character`).
/// - A quoted argument is `"…"`; inside it `\` makes the next byte literal. The closing quote must
///   be followed by whitespace or the end (`Space expected after closing '"'`); a missing one is
///   `Missing closing '"'`.
/// - At most 63 arguments: when 64 are collected the request fails with `Too many arguments`,
///   before any later argument is looked at.
public enum MPDTokenizer {
    /// A tokenizer failure; it is answered with an ACK whose `{command}` is empty.
    public enum Failure: Error, Sendable, Hashable {
        case invalidWordCharacter
        case invalidUnquotedCharacter
        case spaceExpectedAfterClosingQuote
        case missingClosingQuote
        case tooManyArguments

        /// The error as MPD reports it.
        public var error: MPDError {
            switch self {
            case .invalidWordCharacter: MPDError(.unknown, "Invalid word character")
            case .invalidUnquotedCharacter: MPDError(.unknown, "Invalid unquoted character")
            case .spaceExpectedAfterClosingQuote: MPDError(.unknown, "Space expected after closing '\"'")
            case .missingClosingQuote: MPDError(.unknown, "Missing closing '\"'")
            case .tooManyArguments: MPDError(.argument, "Too many arguments")
            }
        }

        /// Whether MPD closes the connection after sending the ACK (only for a bad command name).
        public var closesConnection: Bool { self == .invalidWordCharacter }
    }

    private static let quote = UInt8(ascii: "\"")
    private static let apostrophe = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\")

    /// Tokenizes a line already passed through `MPDRequestLine.clean`.
    public static func tokenize(_ line: ArraySlice<UInt8>) throws(Failure) -> MPDRequest {
        var index = line.startIndex
        let end = line.endIndex
        while index < end && !MPDRequestLine.isWhitespace(line[index]) {
            guard isWordCharacter(line[index]) else { throw .invalidWordCharacter }
            index += 1
        }
        let name = String(decoding: line[line.startIndex..<index], as: UTF8.self)
        skipWhitespace(line, &index)

        var arguments: [MPDArgument] = []
        while true {
            if arguments.count > MPDLimits.maxArguments { throw .tooManyArguments }
            if index == end { break }
            if line[index] == quote {
                arguments.append(try quoted(line, &index))
            } else {
                arguments.append(try unquoted(line, &index))
            }
            skipWhitespace(line, &index)
        }
        return MPDRequest(name: name, arguments: arguments)
    }

    private static func unquoted(_ line: ArraySlice<UInt8>, _ index: inout Int) throws(Failure) -> MPDArgument {
        let start = index
        while index < line.endIndex && !MPDRequestLine.isWhitespace(line[index]) {
            let byte = line[index]
            guard byte != quote && byte != apostrophe else { throw .invalidUnquotedCharacter }
            index += 1
        }
        return MPDArgument(bytes: line[start..<index])
    }

    private static func quoted(_ line: ArraySlice<UInt8>, _ index: inout Int) throws(Failure) -> MPDArgument {
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < line.endIndex else { throw .missingClosingQuote }
            var byte = line[index]
            if byte == quote { break }
            if byte == backslash {
                index += 1
                guard index < line.endIndex else { throw .missingClosingQuote }
                byte = line[index]
            }
            value.append(byte)
            index += 1
        }
        index += 1
        if index < line.endIndex && !MPDRequestLine.isWhitespace(line[index]) {
            throw .spaceExpectedAfterClosingQuote
        }
        return MPDArgument(bytes: value)
    }

    private static func skipWhitespace(_ line: ArraySlice<UInt8>, _ index: inout Int) {
        while index < line.endIndex && MPDRequestLine.isWhitespace(line[index]) {
            index += 1
        }
    }

    @inline(__always)
    private static func isWordCharacter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}

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
