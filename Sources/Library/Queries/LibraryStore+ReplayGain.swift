public import ClickWheelCore
import GRDB

extension LibraryStore {
    /// A track's ReplayGain from the index (`rg_track_gain` in dB and `rg_track_peak`, read from
    /// TXXX/RVA2 at scan time), for Sound Check; nil when the track has no track gain.
    public func replayGain(of id: TrackID) throws -> (gain: Double, peak: Double?)? {
        try db.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT rg_track_gain, rg_track_peak FROM tracks WHERE id = ?"),
                arguments: [id]
            ).flatMap { row in
                (row["rg_track_gain"] as Double?).map { ($0, row["rg_track_peak"] as Double?) }
            }
        }
    }
}
