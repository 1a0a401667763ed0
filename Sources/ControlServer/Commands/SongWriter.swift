import Foundation
import Library
import MPDProtocol

/// Writes songs and directories the way MPD 0.23 does: `file`, `Last-Modified`, `Format`, the tags
/// the client enabled with `tagtypes` (each value of a multi-valued tag on its own line), then
/// `Time` (whole seconds) and `duration` (milliseconds precision).
enum SongWriter {
    /// Which of the tags a song can have the client enabled (`tagtypes`), looked up once per answer
    /// rather than once per tag per song.
    struct Tags {
        var artist, albumArtist, title, album, track, date, genre, composer, disc: Bool
        var artistSort, albumSort, albumArtistSort, comment, musicBrainzTrackID: Bool

        init(_ names: Set<String>) {
            func on(_ tag: MPDTag) -> Bool { names.contains(tag.name) }
            artist = on(.artist)
            albumArtist = on(.albumArtist)
            title = on(.title)
            album = on(.album)
            track = on(.track)
            date = on(.date)
            genre = on(.genre)
            composer = on(.composer)
            disc = on(.disc)
            artistSort = on(.artistSort)
            albumSort = on(.albumSort)
            albumArtistSort = on(.albumArtistSort)
            comment = on(.comment)
            musicBrainzTrackID = on(.musicBrainzTrackID)
        }
    }

    static func write(_ s: SongRecord, tags: Set<String>, into w: inout MPDResponseWriter) {
        write(s, tags: Tags(tags), into: &w)
    }

    /// The song block; the tags in `tagValues`'s order, written straight from the record.
    static func write(_ s: SongRecord, tags: Tags, into w: inout MPDResponseWriter) {
        w.field("file", s.path)
        w.field("Last-Modified", timestamp(s.modified))
        if s.sampleRate > 0 { w.field("Format", String(s.sampleRate) + ":" + s.sampleFormat + ":" + String(s.channels)) }
        if tags.artist { for v in s.artists { w.field("Artist", v) } }
        if tags.albumArtist { for v in s.albumArtists { w.field("AlbumArtist", v) } }
        if tags.title { w.field("Title", s.title) }
        if tags.album { w.field("Album", s.album) }
        if tags.track, let t = s.trackNumber { w.field("Track", t) }
        if tags.date, let d = s.date { w.field("Date", d) }
        if tags.genre { for v in s.genres { w.field("Genre", v) } }
        if tags.composer { for v in s.composers { w.field("Composer", v) } }
        if tags.disc, let d = s.discNumber { w.field("Disc", d) }
        if tags.artistSort, let v = s.sortArtist { w.field("ArtistSort", v) }
        if tags.albumSort, let v = s.sortAlbum { w.field("AlbumSort", v) }
        if tags.albumArtistSort, let v = s.sortAlbumArtist { w.field("AlbumArtistSort", v) }
        if tags.comment, let v = s.comment { w.field("Comment", v) }
        if tags.musicBrainzTrackID, let v = s.musicBrainzTrackID { w.field("MUSICBRAINZ_TRACKID", v) }
        w.field("Time", (s.durationMS + 500) / 1000)
        w.field("duration", seconds(ms: s.durationMS))
    }

    /// The values of every tag a song has, in MPD's output order.
    static func tagValues(_ s: SongRecord) -> [(MPDTag, [String])] {
        var out: [(MPDTag, [String])] = [(.artist, s.artists)]
        if !s.albumArtists.isEmpty { out.append((.albumArtist, s.albumArtists)) }
        out.append((.title, [s.title]))
        out.append((.album, [s.album]))
        if let t = s.trackNumber { out.append((.track, [String(t)])) }
        if let d = s.date { out.append((.date, [d])) }
        if !s.genres.isEmpty { out.append((.genre, s.genres)) }
        if !s.composers.isEmpty { out.append((.composer, s.composers)) }
        if let d = s.discNumber { out.append((.disc, [String(d)])) }
        if let v = s.sortArtist { out.append((.artistSort, [v])) }
        if let v = s.sortAlbum { out.append((.albumSort, [v])) }
        if let v = s.sortAlbumArtist { out.append((.albumArtistSort, [v])) }
        if let v = s.comment { out.append((.comment, [v])) }
        if let v = s.musicBrainzTrackID { out.append((.musicBrainzTrackID, [v])) }
        return out
    }

    /// The values of one tag as `list`, `count`, filters and `sort` see them (empty when the song has
    /// none), with MPD 0.23's fallbacks (its `ApplyTagFallback`): a song without AlbumArtist has its
    /// Artist there, without ArtistSort its Artist, without AlbumSort its Album, and without
    /// AlbumArtistSort its AlbumArtist, else ArtistSort, else Artist. So `list album group albumartist`
    /// puts an album whose songs name no album artist under its artist, as MPD and its clients expect.
    /// Song listings show only the tags a song really has (`tagValues`, `write`).
    static func values(_ s: SongRecord, _ tag: MPDTag) -> [String] {
        switch tag {
        case .artist: s.artists
        case .albumArtist: s.albumArtists.isEmpty ? s.artists : s.albumArtists
        case .title: [s.title]
        case .album: [s.album]
        case .track: s.trackNumber.map { [String($0)] } ?? []
        case .date: s.date.map { [$0] } ?? []
        case .genre: s.genres
        case .composer: s.composers
        case .disc: s.discNumber.map { [String($0)] } ?? []
        case .artistSort: s.sortArtist.map { [$0] } ?? s.artists
        case .albumSort: [s.sortAlbum ?? s.album]
        case .albumArtistSort:
            s.sortAlbumArtist.map { [$0] } ?? (s.albumArtists.isEmpty ? s.sortArtist.map { [$0] } ?? s.artists : s.albumArtists)
        case .comment: s.comment.map { [$0] } ?? []
        case .musicBrainzTrackID: s.musicBrainzTrackID.map { [$0] } ?? []
        default: []
        }
    }

    /// MPD's time stamps: ISO 8601 in UTC, whole seconds.
    static func timestamp(_ unix: Int64) -> String {
        let s = String(unsafeUninitializedCapacity: 20) { writeTimestamp(unix, at: $0.baseAddress!) ?? 0 }
        if !s.isEmpty { return s }
        var t = time_t(unix)
        var tm = tm()
        gmtime_r(&t, &tm)
        return pad(Int(tm.tm_year) + 1900, 4) + "-" + pad(Int(tm.tm_mon) + 1, 2) + "-" + pad(Int(tm.tm_mday), 2) + "T"
            + pad(Int(tm.tm_hour), 2) + ":" + pad(Int(tm.tm_min), 2) + ":" + pad(Int(tm.tm_sec), 2) + "Z"
    }

    /// Writes `timestamp(unix)`'s 20 bytes at `out` and returns 20; nil (nothing written) for a year
    /// outside 0…9999. Digits go straight into memory: Foundation's String(format:) costs microseconds
    /// per call on Linux, concatenation a few allocations, and listallinfo writes one per song.
    static func writeTimestamp(_ unix: Int64, at out: UnsafeMutablePointer<UInt8>) -> Int? {
        var t = time_t(unix)
        var tm = tm()
        gmtime_r(&t, &tm)
        let year = Int(tm.tm_year) + 1900
        guard (0...9999).contains(year) else { return nil }
        put(year, 4, out, 0)
        out[4] = UInt8(ascii: "-")
        put(Int(tm.tm_mon) + 1, 2, out, 5)
        out[7] = UInt8(ascii: "-")
        put(Int(tm.tm_mday), 2, out, 8)
        out[10] = UInt8(ascii: "T")
        put(Int(tm.tm_hour), 2, out, 11)
        out[13] = UInt8(ascii: ":")
        put(Int(tm.tm_min), 2, out, 14)
        out[16] = UInt8(ascii: ":")
        put(Int(tm.tm_sec), 2, out, 17)
        out[19] = UInt8(ascii: "Z")
        return 20
    }

    /// Writes `n` (0 ≤ n < 10^width) as `width` digits at `at`.
    @inline(__always)
    private static func put(_ n: Int, _ width: Int, _ out: UnsafeMutablePointer<UInt8>, _ at: Int) {
        var n = n
        for i in stride(from: at + width - 1, through: at, by: -1) {
            out[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        }
    }

    /// Milliseconds as seconds with three decimals (`14.027`), as MPD prints `duration` and `elapsed`.
    static func seconds(ms: Int) -> String {
        let s = String(unsafeUninitializedCapacity: 13) { writeSeconds(ms: ms, at: $0.baseAddress!) ?? 0 }
        if !s.isEmpty { return s }
        let ms = max(0, ms)
        return String(ms / 1000) + "." + pad(ms % 1000, 3)
    }

    /// Writes `seconds(ms:)`'s bytes at `out` (room for 13) and returns their count; nil (nothing
    /// written) from a billion seconds up.
    static func writeSeconds(ms: Int, at out: UnsafeMutablePointer<UInt8>) -> Int? {
        let ms = max(0, ms)
        let whole = ms / 1000
        guard whole < 1_000_000_000 else { return nil }
        var digits = 1
        var rest = whole / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        put(whole, digits, out, 0)
        out[digits] = UInt8(ascii: ".")
        put(ms % 1000, 3, out, digits + 1)
        return digits + 4
    }

    /// `n` with leading zeros to `width` digits.
    static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
