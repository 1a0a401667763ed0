/// Parses filter arguments into an `MPDFilter`, with MPD 0.23's exact error messages.
///
/// Each argument starting with `(` is one expression; otherwise arguments are taken as legacy
/// `TAG VALUE` pairs. Everything found is ANDed. Every error is an argument error (code 2), as
/// MPD's database commands report them: `Incorrect number of filter arguments`, `Unknown filter
/// type`, `Unknown filter type: Foo`, `Word expected`, `Quoted string expected`, `Closing quote
/// not found`, `'==' or '!=' expected`, `')' expected`, `'(' expected`, `'AND' expected`,
/// `Unparsed garbage after expression`, `Bad URI`, time-stamp errors; and ClickWheel's own
/// `Filter nested too deeply` past `maxDepth` levels.
public struct MPDFilterParser: Sendable {
    /// `true` for `search`-type commands: case-insensitive, and legacy pairs match substrings.
    public var foldCase: Bool
    /// Accept MPD 0.24's `starts_with` operator. MPD 0.23 (the reference) rejects it with
    /// `'==' or '!=' expected`, so the default is `false`.
    public var acceptsStartsWith: Bool
    /// The deepest nesting of parentheses taken. Parsing (and later matching, describing and turning a
    /// filter into SQL) recurses once per level; without a bound an 8 KiB line nests 4,000 levels deep,
    /// past what a small thread stack holds. MPD sets none; no client nests more than a few levels.
    public static let maxDepth = 64

    public init(foldCase: Bool, acceptsStartsWith: Bool = false) {
        self.foldCase = foldCase
        self.acceptsStartsWith = acceptsStartsWith
    }

    /// Parses `arguments` (the command's filter part, sort/window/group already removed).
    public func parse(_ arguments: some Collection<MPDArgument>) throws(MPDError) -> MPDFilter {
        guard !arguments.isEmpty else { throw .argument("Incorrect number of filter arguments") }
        var items: [MPDFilter] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first.bytes.first == UInt8(ascii: "(") {
                var cursor = FilterCursor(first.bytes)
                items.append(try expression(&cursor, depth: 1))
                guard cursor.atEnd else { throw .argument("Unparsed garbage after expression") }
                rest = rest.dropFirst()
                continue
            }
            guard rest.count >= 2 else { throw .argument("Incorrect number of filter arguments") }
            let value = rest[rest.index(after: rest.startIndex)]
            items.append(try legacyPair(type: first, value: value))
            rest = rest.dropFirst(2)
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    private func legacyPair(type: MPDArgument, value: MPDArgument) throws(MPDError) -> MPDFilter {
        guard let kind = MPDFilterType(type) else { throw .argument("Unknown filter type") }
        let match = MPDStringMatch(value: value.bytes, op: foldCase ? .contains : .equals, foldCase: foldCase)
        switch kind {
        case .base:
            guard MPDFilterType.isSafeLocalURI(value.bytes) else { throw .argument("Bad URI") }
            return .base(value.bytes)
        case .modifiedSince: return .modifiedSince(try MPDTimestamp.parse(value.bytes))
        case .file: return .uri(match)
        case .any: return .tag(nil, match)
        case .tag(let tag): return .tag(tag, match)
        case .audioFormat: return .audioFormat(value.string, mask: false)
        }
    }

    private func expression(_ cursor: inout FilterCursor, depth: Int) throws(MPDError) -> MPDFilter {
        guard depth <= Self.maxDepth else { throw .argument("Filter nested too deeply") }
        cursor.advance()
        cursor.skipWhitespace()
        if cursor.peek == UInt8(ascii: "(") {
            let first = try expression(&cursor, depth: depth + 1)
            if cursor.peek == UInt8(ascii: ")") {
                cursor.advance()
                return first
            }
            var items = [first]
            while true {
                guard try cursor.word() == "AND" else { throw .argument("'AND' expected") }
                guard cursor.peek == UInt8(ascii: "(") else { throw .argument("'(' expected") }
                items.append(try expression(&cursor, depth: depth + 1))
                if cursor.peek == UInt8(ascii: ")") {
                    cursor.advance()
                    return .and(items)
                }
            }
        }
        if cursor.peek == UInt8(ascii: "!") {
            cursor.advance()
            cursor.skipWhitespace()
            guard cursor.peek == UInt8(ascii: "(") else { throw .argument("'(' expected") }
            let inner = try expression(&cursor, depth: depth + 1)
            try cursor.closeParenthesis()
            return .not(inner)
        }
        let typeWord = try cursor.word()
        guard let kind = MPDFilterType(MPDArgument(typeWord)) else {
            throw .argument("Unknown filter type: \(typeWord)")
        }
        let result: MPDFilter
        switch kind {
        case .modifiedSince: result = .modifiedSince(try MPDTimestamp.parse(try cursor.quoted()))
        case .base: result = .base(try cursor.quoted())
        case .audioFormat:
            let mask: Bool
            if cursor.hasPrefix("==") { mask = false } else if cursor.hasPrefix("=~") { mask = true } else {
                throw .argument("'==' or '=~' expected")
            }
            cursor.advance(2)
            cursor.skipWhitespace()
            result = .audioFormat(String(decoding: try cursor.quoted(), as: UTF8.self), mask: mask)
        case .file: result = .uri(try stringMatch(&cursor))
        case .any: result = .tag(nil, try stringMatch(&cursor))
        case .tag(let tag): result = .tag(tag, try stringMatch(&cursor))
        }
        try cursor.closeParenthesis()
        return result
    }

    private func stringMatch(_ cursor: inout FilterCursor) throws(MPDError) -> MPDStringMatch {
        for (keyword, op, negated) in [
            ("contains ", MPDStringMatch.Operator.contains, false), ("!contains ", .contains, true),
            ("starts_with ", .startsWith, false), ("!starts_with ", .startsWith, true),
        ] where (op != .startsWith || acceptsStartsWith) && cursor.hasPrefixIgnoringCase(keyword) {
            cursor.advance(keyword.utf8.count)
            cursor.skipWhitespace()
            return MPDStringMatch(value: try cursor.quoted(), op: op, negated: negated, foldCase: foldCase)
        }
        let op: MPDStringMatch.Operator
        let negated: Bool
        if cursor.hasPrefix("=~") || cursor.hasPrefix("!~") {
            (op, negated) = (.regex, cursor.peek == UInt8(ascii: "!"))
        } else if cursor.hasPrefix("==") || cursor.hasPrefix("!=") {
            (op, negated) = (.equals, cursor.peek == UInt8(ascii: "!"))
        } else {
            throw .argument("'==' or '!=' expected")
        }
        cursor.advance(2)
        cursor.skipWhitespace()
        return MPDStringMatch(value: try cursor.quoted(), op: op, negated: negated, foldCase: foldCase)
    }
}

/// The left-hand side of a filter: a tag or one of the special types (MPD's `locate_parse_type`).
enum MPDFilterType: Hashable {
    case file
    case any
    case base
    case modifiedSince
    case audioFormat
    case tag(MPDTag)

    /// Recognises `file`/`filename`, `any`, `AudioFormat` and tag names ignoring case, and
    /// `base`/`modified-since` only in lowercase (as MPD does).
    init?(_ name: MPDArgument) {
        if name.equalsIgnoringCase("file") || name.equalsIgnoringCase("filename") {
            self = .file
        } else if name.equalsIgnoringCase("any") {
            self = .any
        } else if name.equals("base") {
            self = .base
        } else if name.equals("modified-since") {
            self = .modifiedSince
        } else if name.equalsIgnoringCase("AudioFormat") {
            self = .audioFormat
        } else if let tag = MPDTag(name: name) {
            self = .tag(tag)
        } else {
            return nil
        }
    }

    /// MPD's `uri_safe_local`: no empty, `.` or `..` segment, no leading `/`.
    static func isSafeLocalURI(_ bytes: [UInt8]) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            !segment.isEmpty && !segment.elementsEqual([UInt8(ascii: ".")])
                && !segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        }
    }
}
