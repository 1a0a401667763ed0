public import ClickWheelCore
import Foundation
public import GRDB

/// Writes what a listener did with a track to `play_state`: plays, skips, a podcast's place, a
/// finished episode, a rating (the engine's `Effect.played`, `.skipped`, `.bookmark`, `.episodeFinished`,
/// `.rate`; the `rating` sticker).
///
/// The engine has no wall clock, so times (`last_played`, `last_skipped`, `resume_saved_at`, unix seconds) are stamped
/// here. Tracks deleted meanwhile are ignored (the foreign key would refuse them).
///
/// Thread rules: any thread (GRDB serialises writes).
public struct PlayStateStore: Sendable {
    let db: any DatabaseWriter

    public init(_ db: any DatabaseWriter) { self.db = db }

    /// Counts a play and stamps `last_played`.
    public func played(_ track: TrackID, at unixSeconds: Int64 = PlayStateStore.nowSeconds()) throws {
        try db.write(countPlay(track, at: unixSeconds))
    }

    /// `played` as a write to run inside another transaction (`ResumeStore.save(_:alongWith:)`).
    public func countPlay(
        _ track: TrackID, at unixSeconds: Int64 = PlayStateStore.nowSeconds()
    ) -> @Sendable (Database) throws -> Void {
        { db in
            try Self.upsert(
                db, track, "play_count, last_played", "1, ?",
                "play_count = play_count + 1, last_played = excluded.last_played", [unixSeconds])
        }
    }

    /// Counts a skip and stamps `last_skipped`.
    public func skipped(_ track: TrackID, at unixSeconds: Int64 = PlayStateStore.nowSeconds()) throws {
        try upsert(
            track, "skip_count, last_skipped", "1, ?", "skip_count = skip_count + 1, last_skipped = excluded.last_skipped",
            [unixSeconds])
    }

    /// Stores a track's rating: 0…10, two per star (`Rating`); 0 forgets it.
    public func rate(_ track: TrackID, rating: Int) throws {
        let value: Int? = rating > 0 ? min(Rating.maximum, rating) : nil
        try upsert(track, "rating", "?", "rating = excluded.rating", [value])
    }

    /// Remembers a podcast's place (0 forgets it), stamped with the time.
    public func bookmark(_ track: TrackID, ms: Int, at unixSeconds: Int64 = PlayStateStore.nowSeconds()) throws {
        let position: Int? = ms > 0 ? ms : nil
        try upsert(
            track, "resume_ms, resume_saved_at", "?, ?",
            "resume_ms = excluded.resume_ms, resume_saved_at = excluded.resume_saved_at", [position, unixSeconds])
    }

    /// Marks an episode played and forgets its place.
    public func episodeFinished(_ track: TrackID) throws {
        try upsert(track, "played, resume_ms", "1, NULL", "played = 1, resume_ms = NULL, resume_saved_at = NULL", [])
    }

    /// Unix seconds now.
    public static func nowSeconds() -> Int64 { Int64(Date().timeIntervalSince1970) }

    private func upsert(
        _ track: TrackID, _ columns: String, _ values: String, _ update: String,
        _ arguments: [(any DatabaseValueConvertible)?]
    ) throws {
        try db.write { db in try Self.upsert(db, track, columns, values, update, arguments) }
    }

    private static func upsert(
        _ db: Database, _ track: TrackID, _ columns: String, _ values: String, _ update: String,
        _ arguments: [(any DatabaseValueConvertible)?]
    ) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM tracks WHERE id = ?", arguments: [track]) != nil else { return }
        try db.execute(
            sql: """
                INSERT INTO play_state (track_id, \(columns)) VALUES (?, \(values))
                ON CONFLICT(track_id) DO UPDATE SET \(update)
                """,
            arguments: StatementArguments([track as (any DatabaseValueConvertible)?] + arguments))
    }
}
