/// Play counts, skips and podcast places: the engine watches each play-through of a queue entry.
///
/// A play-through begins when an entry starts (a `play` command, or another track becoming current)
/// and ends when another begins or nothing is current any more. Rules:
/// - played: the position passes 50 % of the track or 4 minutes, whichever comes first (or the track
///   plays to its end); counted once per play-through → `Effect.played`;
/// - skipped: left (Next, Previous, another list) before 10 % of it played, not by ending or
///   failing → `Effect.skipped`;
/// - podcasts and audiobook parts (`TrackInfo.isSpokenWord`): past 95 % the episode or part is marked
///   played and its place forgotten
///   (`Effect.episodeFinished`); left earlier, its place is remembered (`Effect.bookmark`).
extension Engine {
    /// One play-through of one queue entry.
    struct PlayThrough: Hashable, Sendable {
        var index: Int
        var id: TrackID
        var durationMS: Int
        /// Spoken word (a podcast episode or an audiobook part): bookmarked, finished past 95 %.
        var isPodcast: Bool
        /// The last position seen while it was current.
        var lastMS: Int
        /// `Effect.played` was emitted (or, after a restore, presumably was before).
        var counted: Bool
        /// A podcast past 95 %: marked played, no more bookmarks this play-through.
        var episodeDone: Bool

        /// Where it counts as played: half the track, at most 4 minutes in.
        var playedAtMS: Int { min(durationMS / 2, 240_000) }
        /// Before this it counts as skipped when left.
        var skipBeforeMS: Int { durationMS / 10 }
        /// Past this an episode is finished.
        var episodeDoneAtMS: Int { durationMS / 100 * 95 }
    }

    /// The play-through of the current entry, read from the library (nil when nothing is current).
    mutating func newPlayThrough(positionMS: Int) -> PlayThrough? {
        guard let index = player.current, let id = player.currentID else { return nil }
        let info = loadCurrentTrack()
        var p = PlayThrough(
            index: index, id: id, durationMS: info?.durationMS ?? 0, isPodcast: info?.isSpokenWord ?? false,
            lastMS: positionMS, counted: false, episodeDone: false)
        p.counted = p.durationMS > 0 && positionMS >= p.playedAtMS
        p.episodeDone = p.isPodcast && p.durationMS > 0 && positionMS >= p.episodeDoneAtMS
        return p
    }

    /// Ends play-through `p`: how it was left decides whether it counts as played, skipped, or (for a
    /// podcast) finished or bookmarked. `ended`: it played to its end; `failed`: it could not play.
    func leave(_ p: PlayThrough, ended: Bool, failed: Bool) -> [Effect] {
        guard p.durationMS > 0, !failed else { return [] }
        var effects: [Effect] = []
        if ended && !p.counted {
            effects.append(.played(p.id, atMS: p.durationMS))  // played to its end: its whole length
        } else if !ended && !p.counted && p.lastMS < p.skipBeforeMS {
            effects.append(.skipped(p.id, atMS: p.lastMS))
        }
        if p.isPodcast && !p.episodeDone {
            effects.append(ended || p.lastMS >= p.episodeDoneAtMS ? .episodeFinished(p.id) : .bookmark(p.id, ms: p.lastMS))
        }
        return effects
    }

    /// Follows the position of the current play-through: counts it played, finishes an episode.
    mutating func observe(_ p: inout PlayThrough) -> [Effect] {
        guard player.status != .stopped else { return [] }
        p.lastMS = player.elapsedMS
        guard p.durationMS > 0, player.status == .playing else { return [] }
        var effects: [Effect] = []
        if !p.counted && p.lastMS >= p.playedAtMS {
            p.counted = true
            effects.append(.played(p.id, atMS: p.lastMS))
        }
        if p.isPodcast && !p.episodeDone && p.lastMS >= p.episodeDoneAtMS {
            p.episodeDone = true
            effects.append(.episodeFinished(p.id))
        }
        return effects
    }
}
