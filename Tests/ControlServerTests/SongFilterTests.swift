@testable import ControlServer
@testable import Library
import MPDProtocol
import Testing

/// `SongFilter` against songs made for the purpose: MPD's comparisons (find exact and case-sensitive,
/// search by substring ignoring case, also beyond ASCII), `any` across every tag, negation, regex.
struct SongFilterTests {
    static let song = SongRecord(
        id: 1, path: "Ünï Band/Crème/03 Straße.mp3", modified: 1_700_000_000, title: "Straße am Meer",
        artists: ["Ünï Band", "DJ Mirage"], album: "Crème Brûlée", albumArtists: [], genres: ["Post-Rock"],
        composers: [], date: "2004-05-06", trackNumber: 3, discNumber: 2, comment: "Recorded LIVE",
        musicBrainzTrackID: nil, sortArtist: nil, sortAlbum: nil, sortAlbumArtist: nil, durationMS: 200_000,
        samples: 0, sampleRate: 44100, channels: 2, bitrate: 192)

    static func matches(_ line: String) throws -> Bool {
        let request = try MPDTokenizer.tokenize(Array(line.utf8)[...])
        let parsed = try MPDSearchRequest.parse(request.arguments, foldCase: request.name == "search", acceptsPosition: false)
        return SongFilter(parsed.filter!).matches(song)
    }

    @Test(arguments: [
        ("find artist \"Ünï Band\"", true),
        ("find artist \"ünï band\"", false),
        ("search artist \"ÜNÏ\"", true),  // beyond ASCII, as MPD folds
        ("search artist \"mirage\"", true),
        ("search title \"STRASSE\"", false),  // lowercasing, not full case folding (ß stays ß)
        ("search title \"straße AM\"", true),
        ("search any \"live\"", true),  // the comment
        ("search any \"post-rock\"", true),  // a genre
        ("search any \"2004\"", true),  // the date
        ("find any \"3\"", true),  // the track number
        ("find any \"2\"", true),  // the disc number
        ("search any \"nowhere\"", false),
        ("search any \"\"", true),
        ("find albumartist \"DJ Mirage\"", true),  // no AlbumArtist: the artists stand in
        ("find \"(!(Genre == 'Post-Rock'))\"", false),
        ("search \"(Genre != 'jazz')\"", true),
        ("search \"(Album contains 'BRÛLÉE')\"", true),
        ("find \"(Album contains 'brûlée')\"", false),
        ("find \"(Title =~ '^Stra.e')\"", true),
        ("search \"(Title =~ '^STRA.E')\"", true),
        ("find \"(Title =~ '^STRA.E')\"", false),
        ("find \"(Title =~ '(')\"", false),  // an invalid pattern matches nothing
        ("find \"(base 'Ünï Band')\"", true),
        ("find \"(base 'Ünï')\"", false),
        ("find \"(file == 'Ünï Band/Crème/03 Straße.mp3')\"", true),
        ("find \"(AudioFormat == '44100:16:2')\"", true),
        ("find \"(AudioFormat =~ '44100:*:*')\"", true),
        ("find \"(modified-since '2023-11-14T22:13:20Z')\"", true),
        ("find \"((Artist == 'DJ Mirage') AND (Date == '2004-05-06'))\"", true),
    ])
    func comparesAsMPDDoes(line: String, expected: Bool) throws {
        #expect(try Self.matches(line) == expected, "\(line)")
    }
}
