/// The arguments of `list TAG [FILTER] [group TAG]…`, parsed as MPD 0.23 does.
///
/// `group` pairs are taken off the end; with several, the last one is the outermost. The legacy
/// three-word form `list Album "Artist Name"` means albums by that artist. Errors (code 2):
/// `Unknown tag type: Foo`, `Conflicting group`, `should be "Album" for 3 arguments`, filter
/// errors.
public struct MPDListRequest: Sendable, Hashable {
    /// The tag whose values are listed.
    public var tag: MPDTag
    /// Group tags, innermost first (the order MPD stores them in, `tag` excluded).
    public var groups: [MPDTag]
    public var filter: MPDFilter?

    public init(tag: MPDTag, groups: [MPDTag] = [], filter: MPDFilter? = nil) {
        self.tag = tag
        self.groups = groups
        self.filter = filter
    }

    /// Parses the arguments of `list` (at least one: the tag).
    public static func parse(_ arguments: [MPDArgument]) throws(MPDError) -> MPDListRequest {
        guard let name = arguments.first else { throw .argument("too few arguments for \"list\"") }
        guard let tag = MPDTag(name: name) else { throw .argument("Unknown tag type: \(name.string)") }
        var rest = arguments.dropFirst()
        var request = MPDListRequest(tag: tag)
        if rest.count == 1, let legacy = rest.first, legacy.bytes.first != UInt8(ascii: "(") {
            guard tag == .album else { throw .argument("should be \"Album\" for 3 arguments") }
            request.filter = .tag(.artist, MPDStringMatch(value: legacy.bytes, op: .equals, foldCase: false))
            return request
        }
        while let value = MPDSearchRequest.trailing("group", &rest) {
            guard let group = MPDTag(name: value) else { throw .argument("Unknown tag type: \(value.string)") }
            guard group != tag && !request.groups.contains(group) else { throw .argument("Conflicting group") }
            request.groups.append(group)
        }
        if !rest.isEmpty {
            request.filter = try MPDFilterParser(foldCase: false).parse(rest)
        }
        return request
    }
}
