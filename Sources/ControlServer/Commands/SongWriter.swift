import Foundation
import Library
import MPDProtocol

/// Writes songs and directories the way MPD 0.23 does: `file`, `Last-Modified`, `Format`, the tags
/// the client enabled with `tagtypes` (each value of a multi-valued tag on its own line), then
/// `Time` (whole seconds) and `duration` (milliseconds precision).
enum SongWriter {
    static func write(_ s: SongRecord, tags: Set<String>, into w: inout MPDResponseWriter) {
        w.field("file", s.path)
        w.field("Last-Modified", timestamp(s.modified))
        if s.sampleRate > 0 { w.field("Format", "\(s.sampleRate):16:\(s.channels)") }
        for (tag, values) in tagValues(s) where tags.contains(tag.name) {
            for v in values { w.field(tag.name, v) }
        }
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

    /// The values of one tag (empty when the song has none).
    static func values(_ s: SongRecord, _ tag: MPDTag) -> [String] {
        tagValues(s).first { $0.0 == tag }?.1 ?? []
    }

    /// MPD's time stamps: ISO 8601 in UTC, whole seconds.
    static func timestamp(_ unix: Int64) -> String {
        var t = time_t(unix)
        var tm = tm()
        gmtime_r(&t, &tm)
        // Hand-formatted: Foundation's String(format:) costs microseconds per call on Linux, and
        // listallinfo writes one of these per song.
        return pad(Int(tm.tm_year) + 1900, 4) + "-" + pad(Int(tm.tm_mon) + 1, 2) + "-" + pad(Int(tm.tm_mday), 2) + "T"
            + pad(Int(tm.tm_hour), 2) + ":" + pad(Int(tm.tm_min), 2) + ":" + pad(Int(tm.tm_sec), 2) + "Z"
    }

    /// Milliseconds as seconds with three decimals (`14.027`), as MPD prints `duration` and `elapsed`.
    static func seconds(ms: Int) -> String {
        let ms = max(0, ms)
        return String(ms / 1000) + "." + pad(ms % 1000, 3)
    }

    /// `n` with leading zeros to `width` digits.
    static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
