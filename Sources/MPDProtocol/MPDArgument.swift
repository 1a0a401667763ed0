/// One argument of a request, as the raw bytes the client sent (after unquoting).
///
/// Arguments are never checked for UTF-8: MPD passes invalid sequences through untouched
/// (`save "bad\xffname"` creates that playlist, `search any "\xc3"` matches `é` bytewise).
/// Quoting is not meaningful beyond tokenizing: `"1"` and `1` are the same argument.
public struct MPDArgument: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    public init(_ string: String) {
        bytes = Array(string.utf8)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The argument as text, or `nil` when its bytes are not valid UTF-8.
    public var validString: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The argument as text, invalid UTF-8 replaced by U+FFFD (for messages and logs).
    public var string: String {
        String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { string }

    /// Whether the argument is exactly the ASCII `word` (case-sensitive).
    public func equals(_ word: String) -> Bool {
        bytes.elementsEqual(word.utf8)
    }

    /// Whether the argument equals the ASCII `word`, ignoring ASCII case.
    public func equalsIgnoringCase(_ word: String) -> Bool {
        bytes.count == word.utf8.count
            && zip(bytes, word.utf8).allSatisfy { MPDArgument.lowercased($0) == MPDArgument.lowercased($1) }
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

/// One tokenized request: the command name and its arguments.
public struct MPDRequest: Sendable, Hashable {
    /// The command name, `[a-z][a-z0-9_]*`.
    public var name: String
    public var arguments: [MPDArgument]

    public init(name: String, arguments: [MPDArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}
