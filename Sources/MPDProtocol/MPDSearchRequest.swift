/// The arguments of `find`, `search`, `findadd`, `searchadd`, `count`, parsed as MPD 0.23 does.
///
/// Trailing keywords are taken off the end first (compared case-sensitively, as MPD does):
/// `position POS` (findadd/searchadd), then `window S:E`, then `sort [-]TAG`, or for `count`
/// `group TAG`; what remains is the filter (`MPDFilterParser`). Filter errors are code 2.
public struct MPDSearchRequest: Sendable, Hashable {
    /// What a result list is sorted by.
    public enum SortKey: Sendable, Hashable {
        case tag(MPDTag)
        /// `sort Last-Modified`.
        case lastModified
    }

    /// The filter; `nil` only for `count group TAG` without a filter.
    public var filter: MPDFilter?
    public var sort: SortKey?
    public var sortDescending: Bool
    public var window: MPDRange?
    /// `count … group TAG`.
    public var group: MPDTag?
    /// `findadd/searchadd … position POS`, unparsed: it may be relative (`+N`/`-N`) to the
    /// current song, which only the engine knows.
    public var position: MPDArgument?

    /// Parses a `find`/`search`/`findadd`/`searchadd` request's arguments.
    ///
    /// - Parameters:
    ///   - foldCase: `true` for `search`/`searchadd` (case-insensitive, legacy pairs match substrings).
    ///   - acceptsPosition: `true` for `findadd`/`searchadd`.
    public static func parse(
        _ arguments: [MPDArgument], foldCase: Bool, acceptsPosition: Bool = false
    ) throws(MPDError) -> MPDSearchRequest {
        var rest = arguments[...]
        var request = MPDSearchRequest(filter: nil, sort: nil, sortDescending: false, window: nil)
        if acceptsPosition, let value = trailing("position", &rest) {
            request.position = value
        }
        if let value = trailing("window", &rest) {
            request.window = try value.range()
        }
        if var value = trailing("sort", &rest) {
            if value.bytes.first == UInt8(ascii: "-") {
                request.sortDescending = true
                value = MPDArgument(bytes: value.bytes.dropFirst())
            }
            if value.equalsIgnoringCase("Last-Modified") {
                request.sort = .lastModified
            } else if let tag = MPDTag(name: value) {
                request.sort = .tag(tag)
            } else {
                throw .argument("Unknown sort tag")
            }
        }
        request.filter = try MPDFilterParser(foldCase: foldCase).parse(rest)
        return request
    }

    /// Parses a `count` request's arguments: `FILTER [group TAG]` or `group TAG` alone.
    ///
    /// Error: `Unknown tag type: Foo` for the group tag, filter errors.
    public static func parseCount(_ arguments: [MPDArgument]) throws(MPDError) -> MPDSearchRequest {
        var rest = arguments[...]
        var request = MPDSearchRequest(filter: nil, sort: nil, sortDescending: false, window: nil)
        if let value = trailing("group", &rest) {
            guard let tag = MPDTag(name: value) else { throw .argument("Unknown tag type: \(value.string)") }
            request.group = tag
        }
        if !rest.isEmpty {
            request.filter = try MPDFilterParser(foldCase: false).parse(rest)
        }
        return request
    }

    init(
        filter: MPDFilter?, sort: SortKey?, sortDescending: Bool, window: MPDRange?, group: MPDTag? = nil,
        position: MPDArgument? = nil
    ) {
        self.filter = filter
        self.sort = sort
        self.sortDescending = sortDescending
        self.window = window
        self.group = group
        self.position = position
    }

    /// Removes `keyword VALUE` from the end of `rest` and returns `VALUE`, if it is there.
    static func trailing(_ keyword: String, _ rest: inout ArraySlice<MPDArgument>) -> MPDArgument? {
        guard rest.count >= 2, rest[rest.endIndex - 2].equals(keyword) else { return nil }
        let value = rest[rest.endIndex - 1]
        rest = rest.dropLast(2)
        return value
    }
}
