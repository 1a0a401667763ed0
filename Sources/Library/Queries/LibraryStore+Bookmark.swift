public import ClickWheelCore
import GRDB

extension LibraryStore {
    /// A podcast's remembered place from `play_state` (`resume_ms`, stamped `resume_saved_at`).
    public func bookmark(of id: TrackID) throws -> Bookmark? {
        try db.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT resume_ms, resume_saved_at FROM play_state WHERE track_id = ? AND resume_ms > 0"),
                arguments: [id]
            ).map { row in
                Bookmark(positionMS: row["resume_ms"], savedAtMS: (row["resume_saved_at"] as Int64?).map { $0 * 1000 })
            }
        }
    }
}
