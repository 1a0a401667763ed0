public import ClickWheelCore
import Foundation
import GRDB

/// What playback needs of a track: the file's exact name and its Sound Check gain.
public struct PlayableFile: Hashable, Sendable {
    /// The path relative to the music folder, as the file system's bytes (not necessarily UTF-8).
    public var relativePath: [UInt8]
    /// ReplayGain track gain in dB (TXXX/RVA2, read at scan time); nil when the track has none.
    public var gain: Double?
    /// The track's peak sample, 1 = full scale; nil when unknown.
    public var peak: Double?
    /// ReplayGain album gain and peak (Sound Check's album mode); nil when the track has none.
    public var albumGain: Double?
    public var albumPeak: Double?

    public init(
        relativePath: [UInt8], gain: Double? = nil, peak: Double? = nil, albumGain: Double? = nil,
        albumPeak: Double? = nil
    ) {
        self.relativePath = relativePath
        self.albumGain = albumGain
        self.albumPeak = albumPeak
        self.gain = gain
        self.peak = peak
    }
}

extension LibraryStore {
    /// A track's ReplayGain from the index (`rg_track_gain` in dB and `rg_track_peak`, read from
    /// TXXX/RVA2 at scan time), for Sound Check; nil when the track has no track gain.
    public func replayGain(of id: TrackID) throws -> (gain: Double, peak: Double?)? {
        try playableFile(id).flatMap { f in f.gain.map { ($0, f.peak) } }
    }

    /// The file to open for a track and its gain, in one read; nil when the track is gone. The
    /// exact name bytes come from `path_bytes` when the name is not valid UTF-8 (`path` then holds
    /// U+FFFD and would open nothing).
    public func playableFile(_ id: TrackID) throws -> PlayableFile? {
        try db.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT path, path_bytes, rg_track_gain, rg_track_peak, rg_album_gain, rg_album_peak
                        FROM tracks WHERE id = ?
                        """),
                arguments: [id]
            ).map { row in
                let bytes = (row["path_bytes"] as Data?).map { Array($0) } ?? Array((row["path"] as String).utf8)
                return PlayableFile(
                    relativePath: bytes, gain: row["rg_track_gain"], peak: row["rg_track_peak"],
                    albumGain: row["rg_album_gain"], albumPeak: row["rg_album_peak"])
            }
        }
    }
}
