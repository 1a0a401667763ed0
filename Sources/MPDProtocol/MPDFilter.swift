/// A parsed song filter for `find`, `search`, `count`, `list`, `findadd`… (MPD's `SongFilter`).
///
/// The codec only parses; the library side evaluates. Values stay raw bytes, because MPD matches
/// bytewise (`search any "\xc3"` finds `é`) and an invalid UTF-8 value simply matches nothing.
public indirect enum MPDFilter: Sendable, Hashable {
    /// All of the filters must match (legacy pairs, several expressions, `(… AND …)`).
    case and([MPDFilter])
    /// `(!(EXPR))`.
    case not(MPDFilter)
    /// A tag compared with a string; `tag == nil` means `any` tag.
    case tag(MPDTag?, MPDStringMatch)
    /// `file`: the song's URI compared with a string.
    case uri(MPDStringMatch)
    /// `base`: the song lies in this directory (raw bytes, not yet checked as a path).
    case base([UInt8])
    /// `modified-since`: the file changed at or after this Unix time (seconds).
    case modifiedSince(Int64)
    /// `AudioFormat == 'R:B:C'`; with `mask` (`=~`) `*` fields match anything.
    case audioFormat(String, mask: Bool)
}

/// How a string operand is compared.
public struct MPDStringMatch: Sendable, Hashable {
    /// The comparison operator.
    public enum Operator: Sendable, Hashable {
        /// `==` (and legacy `find` pairs).
        case equals
        /// `contains` (and legacy `search` pairs).
        case contains
        /// `starts_with` (MPD 0.24; accepted only when the parser is told to).
        case startsWith
        /// `=~` / `!~`: the value is a PCRE pattern, compiled by the library side.
        case regex
    }

    public var value: [UInt8]
    public var op: Operator
    /// `!=`, `!contains`, `!~`.
    public var negated: Bool
    /// Compare ignoring case (`search`-type commands); `find`-type commands are case-sensitive.
    public var foldCase: Bool

    public init(value: [UInt8], op: Operator, negated: Bool = false, foldCase: Bool) {
        self.value = value
        self.op = op
        self.negated = negated
        self.foldCase = foldCase
    }

    /// The value as text, or `nil` when it is not valid UTF-8 (then it matches nothing).
    public var string: String? { String(validating: value, as: UTF8.self) }
}
