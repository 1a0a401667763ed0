/// What each iTunes `ilst` item atom means and how its `data` atoms decode: the table the tag reader
/// follows, so adding an atom is one line here.
enum MP4ItemKind: Equatable {
    /// Text (UTF-8, UTF-16, or implicit bytes taken as UTF-8).
    case text(TagKey)
    /// A big-endian integer, kept as its decimal text (`tmpo`, `stik`).
    case integer(TagKey)
    /// "1" when the integer is not 0, nothing when it is (`cpil`, `pcst`).
    case flag(TagKey)
    /// Two 16-bit numbers after two reserved bytes: number and total (`trkn`, `disk`).
    case pair(TagKey, TagKey)
    /// An ID3v1 genre number plus one (`gnre`).
    case genreNumber
    /// Pictures (`covr`).
    case cover
    /// `----`: a `mean`, a `name` and the data.
    case freeform

    static let table: [FourCC: MP4ItemKind] = [
        "©nam": .text(.title), "©ART": .text(.artist), "aART": .text(.albumArtist), "©alb": .text(.album),
        "©day": .text(.date), "©gen": .text(.genre), "©wrt": .text(.composer), "©cmt": .text(.comment),
        "©grp": .text(.grouping), "©lyr": .text(.lyrics),
        "sonm": .text(.sortTitle), "soar": .text(.sortArtist), "soaa": .text(.sortAlbumArtist),
        "soal": .text(.sortAlbum), "soco": .text(.sortComposer),
        "desc": .text(.podcastDescription), "ldes": .text(.podcastDescription), "purl": .text(.podcastURL),
        "tmpo": .integer(.bpm), "stik": .integer(.mediaKind),
        "cpil": .flag(.compilation), "pcst": .flag(.podcast),
        "trkn": .pair(.trackNumber, .trackTotal), "disk": .pair(.discNumber, .discTotal),
        "gnre": .genreNumber, "covr": .cover, "----": .freeform,
    ]

    /// The key of a freeform item (`mean`, `name`): Sound Check, MusicBrainz ids and ReplayGain by name
    /// (case-insensitive), anything else `.other("mean:name")`.
    static func freeformKey(mean: String, name: String) -> TagKey {
        let lower = name.lowercased()
        if let key = freeformNames[lower], mean.lowercased() == "com.apple.itunes" || lower.hasPrefix("replaygain_") {
            return key
        }
        return .other(mean + ":" + name)
    }

    static let freeformNames: [String: TagKey] = [
        "itunnorm": .iTunesNormalization,
        "musicbrainz track id": .musicBrainzTrackID, "musicbrainz album id": .musicBrainzAlbumID,
        "musicbrainz artist id": .musicBrainzArtistID, "musicbrainz album artist id": .musicBrainzAlbumArtistID,
        "replaygain_track_gain": .replayGainTrackGain, "replaygain_track_peak": .replayGainTrackPeak,
        "replaygain_album_gain": .replayGainAlbumGain, "replaygain_album_peak": .replayGainAlbumPeak,
    ]

    /// The ID3v1 genre list (`ID3GenreNames`), index = genre number; `gnre` stores the number plus one.
    static var genres: [String] { ID3GenreNames.all }
}
