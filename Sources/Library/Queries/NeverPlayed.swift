import ClickWheelCore
import GRDB
import Synchronization

/// Never Played, paged by Songs position: the list is Songs without the songs played at least once,
/// so row `i` is found from the sorted Songs positions (`tracks.ord`) of the played songs alone — a
/// binary search over them, then an index range read from that position — whatever the page, never
/// an OFFSET walk over 100,000 rows.
///
/// The played positions (`play_state.song_ord`, an index of its own) are kept between calls and read
/// again when `listening_version` (bumped by triggers when a song's play count leaves or reaches 0,
/// and by every renumbering) has moved.
///
/// Thread rules: any thread (one mutex around the kept positions).
final class NeverPlayed: Sendable {
    private let kept = Mutex<(version: Int64, ords: [Int])?>(nil)

    /// The Songs positions of the played songs, ascending.
    func playedOrds(_ db: Database) throws -> [Int] {
        let version = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM listening_version")) ?? 0
        if let k = kept.withLock({ $0 }), k.version == version { return k.ords }
        let ords = try Int.fetchAll(db.cachedStatement(sql: """
            SELECT song_ord FROM play_state INDEXED BY play_state_played_ord
            WHERE play_count > 0 AND song_ord IS NOT NULL ORDER BY song_ord
            """))
        kept.withLock { $0 = (version, ords) }
        return ords
    }

    func count(_ db: Database) throws -> Int {
        let songs = try Int.fetchOne(db.cachedStatement(sql: "SELECT ifnull(max(ord) + 1, 0) FROM tracks")) ?? 0
        return max(0, songs - (try playedOrds(db).count))
    }

    /// The Songs position of Never Played's row `index`: `index` plus the played songs before it.
    /// With `played[j]` ascending, `played[j] - j` (the unplayed songs before the j-th played one) is
    /// non-decreasing, so the number of played songs before the row is found by bisection.
    static func ord(ofRow index: Int, played: [Int]) -> Int {
        index + firstIndex(in: played) { j, ord in ord - j > index }
    }

    /// The first index `j` of `played` where `past(j, played[j])` holds (it must hold from there on).
    private static func firstIndex(in played: [Int], where past: (Int, Int) -> Bool) -> Int {
        var low = 0, high = played.count
        while low < high {
            let mid = (low + high) / 2
            if past(mid, played[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    func rows(_ db: Database, in range: Range<Int>, columns: String) throws -> [Row] {
        let start = Self.ord(ofRow: range.lowerBound, played: try playedOrds(db))
        return try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT \(columns) FROM tracks t INDEXED BY tracks_ord LEFT JOIN play_state p ON p.track_id = t.id
                WHERE t.ord >= ? AND ifnull(p.play_count, 0) = 0 ORDER BY t.ord LIMIT ?
                """), arguments: [start, range.count])
    }

    /// Where song `id` sits in Never Played, nil when it was played (or is not a song).
    func index(of id: Int64, _ db: Database) throws -> Int? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT t.ord, ifnull(p.play_count, 0) AS plays FROM tracks t LEFT JOIN play_state p ON p.track_id = t.id
            WHERE t.id = ?
            """), arguments: [id]), let ord = row["ord"] as Int?, (row["plays"] as Int? ?? 0) == 0
        else { return nil }
        return ord - Self.firstIndex(in: try playedOrds(db)) { _, played in played >= ord }
    }
}
