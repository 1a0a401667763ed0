import MPDProtocol
import Testing

/// Trailing keywords of find/search/count/list and their errors.
@Suite struct SearchRequestTests {
    static func args(_ words: String...) -> [MPDArgument] { words.map { MPDArgument($0) } }

    static func exact(_ value: String) -> MPDStringMatch {
        MPDStringMatch(value: Array(value.utf8), op: .equals, foldCase: false)
    }

    @Test func findWithSortAndWindow() throws {
        let request = try MPDSearchRequest.parse(
            Self.args("(Artist == 'Alpha Band')", "sort", "-Track", "window", "1:3"), foldCase: false)
        #expect(request.sort == .tag(.track) && request.sortDescending)
        #expect(request.window == MPDRange(start: 1, end: 3))
        #expect(request.filter == .tag(.artist, Self.exact("Alpha Band")))
        let lastModified = try MPDSearchRequest.parse(Self.args("any", "x", "sort", "Last-Modified"), foldCase: true)
        #expect(lastModified.sort == .lastModified && !lastModified.sortDescending)
    }

    @Test func positionOnlyForTheAddingCommands() throws {
        let add = try MPDSearchRequest.parse(
            Self.args("title", "o", "position", "+0"), foldCase: true, acceptsPosition: true)
        #expect(add.position == "+0")
        #expect(throws: MPDError.argument("Unknown filter type")) {
            try MPDSearchRequest.parse(Self.args("title", "o", "position", "0"), foldCase: true)
        }
    }

    @Test func searchErrors() {
        #expect(throws: MPDError.argument("Unknown sort tag")) {
            try MPDSearchRequest.parse(Self.args("any", "x", "sort", "Bogus"), foldCase: false)
        }
        #expect(throws: MPDError.argument("Malformed range: 3:1")) {
            try MPDSearchRequest.parse(Self.args("any", "x", "window", "3:1"), foldCase: false)
        }
        #expect(throws: MPDError.argument("Incorrect number of filter arguments")) {
            try MPDSearchRequest.parse(Self.args("sort", "Title"), foldCase: false)
        }
        #expect(throws: MPDError.argument("Unknown tag type: Foo")) {
            try MPDSearchRequest.parseCount(Self.args("group", "Foo"))
        }
    }

    @Test func countGroups() throws {
        let request = try MPDSearchRequest.parseCount(Self.args("group", "AlbumArtist"))
        #expect(request.group == .albumArtist && request.filter == nil)
    }

    @Test func listGroupsAndLegacyForms() throws {
        let malp = try MPDListRequest.parse(Self.args("album", "group", "albumartist", "group", "musicbrainz_albumid"))
        #expect(malp == MPDListRequest(tag: .album, groups: [.musicBrainzAlbumID, .albumArtist]))
        let legacy = try MPDListRequest.parse(Self.args("Album", "Beta Singer"))
        #expect(legacy.filter == .tag(.artist, Self.exact("Beta Singer")))
        #expect(throws: MPDError.argument("should be \"Album\" for 3 arguments")) {
            try MPDListRequest.parse(Self.args("Title", "x"))
        }
        #expect(throws: MPDError.argument("Conflicting group")) {
            try MPDListRequest.parse(Self.args("album", "group", "album"))
        }
        #expect(throws: MPDError.argument("Unknown tag type: Foo")) { try MPDListRequest.parse(Self.args("Foo")) }
    }
}
