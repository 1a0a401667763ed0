/// The Vorbis comment field names the project maps onto `TagKey`, as MPD maps them (its `xiph_tags` and
/// tag-name tables), plus the spellings other taggers write (`TOTALTRACKS`, `ALBUM ARTIST`, `YEAR`).
///
/// Names are compared upper-cased. `MUSICBRAINZ_TRACKID` is the recording's id, as MPD and Picard have it.
enum VorbisCommentKeys {
    static let table: [String: TagKey] = [
        "TITLE": .title, "ARTIST": .artist, "ALBUM": .album,
        "ALBUMARTIST": .albumArtist, "ALBUM ARTIST": .albumArtist, "ALBUM_ARTIST": .albumArtist,
        "GENRE": .genre, "COMPOSER": .composer,
        "COMMENT": .comment, "DESCRIPTION": .comment,
        "DATE": .date, "YEAR": .date, "RELEASEDATE": .releaseDate,
        "GROUPING": .grouping, "CONTENTGROUP": .grouping,
        "LYRICS": .lyrics, "UNSYNCEDLYRICS": .lyrics,
        "TRACKNUMBER": .trackNumber, "TRACKTOTAL": .trackTotal, "TOTALTRACKS": .trackTotal,
        "DISCNUMBER": .discNumber, "DISCTOTAL": .discTotal, "TOTALDISCS": .discTotal,
        "COMPILATION": .compilation,
        "TITLESORT": .sortTitle, "ARTISTSORT": .sortArtist, "ALBUMSORT": .sortAlbum,
        "ALBUMARTISTSORT": .sortAlbumArtist, "COMPOSERSORT": .sortComposer,
        "BPM": .bpm,
        "REPLAYGAIN_TRACK_GAIN": .replayGainTrackGain, "REPLAYGAIN_TRACK_PEAK": .replayGainTrackPeak,
        "REPLAYGAIN_ALBUM_GAIN": .replayGainAlbumGain, "REPLAYGAIN_ALBUM_PEAK": .replayGainAlbumPeak,
        "R128_TRACK_GAIN": .r128TrackGain, "R128_ALBUM_GAIN": .r128AlbumGain,
        "MUSICBRAINZ_TRACKID": .musicBrainzTrackID, "MUSICBRAINZ_ALBUMID": .musicBrainzAlbumID,
        "MUSICBRAINZ_ARTISTID": .musicBrainzArtistID, "MUSICBRAINZ_ALBUMARTISTID": .musicBrainzAlbumArtistID,
        "PODCASTURL": .podcastURL, "PODCASTDESCRIPTION": .podcastDescription,
    ]

    /// The key of a field name (any case); an unknown name is `.other` with the name upper-cased.
    static func key(_ name: String) -> TagKey {
        let upper = asciiUppercased(name)
        return table[upper] ?? .other(upper)
    }

    /// ASCII letters upper-cased, everything else kept (field names are ASCII by the spec; a hostile one
    /// is not made longer or changed otherwise).
    static func asciiUppercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
