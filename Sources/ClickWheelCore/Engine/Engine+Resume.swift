/// Resume after a restart or a power cut, and podcast places: when to checkpoint, how to restore.
///
/// After every event (`afterEvent`) the engine looks at what the event did to playback:
/// - a checkpoint (`Effect.checkpoint`) follows every change the MPD idle system hears of (play,
///   pause, stop, skip, track change, seek, queue change), and one is due `checkpointIntervalMS`
///   after the last while playing; position reports come once a second and carry it, so a power cut
///   loses at most 4.5 s of place;
/// - play-throughs are followed for play counts (`Engine+PlayCounts`);
/// - a podcast that starts again resumes at its bookmark, rewound by `rewindMS(awayMS:)`.
///
/// `Event.restore` brings the queue back paused at the saved position (Now Playing is offered in the
/// main menu). The playback shell has nothing loaded then, so playing it again (`resumePaused`) loads
/// it: a `play` of the entry, then a `seek` to the position. A podcast paused for a while rewinds
/// there too. With Settings → Resume Playing on, a queue that was playing carries on by itself.
///
/// The engine reads no clock: the shell sends `Event.wallClock` (at start and now and then) and
/// stamps checkpoints and bookmarks with the wall time when it stores them.
extension Engine {
    /// What the engine remembers for resume, checkpoints and play counts.
    struct ResumeTracker: Hashable, Sendable {
        /// Unix milliseconds minus the monotonic milliseconds, from the last `Event.wallClock`.
        var wallOffsetMS: Int64?
        var lastCheckpoint: Timestamp?
        /// A restored entry the playback shell has not loaded yet.
        var shellEmpty = false
        /// This event loaded the restored entry (its play-through goes on: no new one starts).
        var loadedRestored = false
        /// An entry started at a position: the shell's `started` report must not reset it to 0.
        var pendingStart: PendingStart?
        /// Since when the current entry is paused (before `now` for a restored one: the time away).
        var pausedSince: Timestamp?
        var lastStatus = Player.Status.stopped
        var playThrough: PlayThrough?
    }

    struct PendingStart: Hashable, Sendable {
        var index: Int
        var ms: Int
    }

    /// How long after the last checkpoint one is due while playing, milliseconds. The next position
    /// report (one a second) carries it, so checkpoints come about every 4 s.
    static let checkpointIntervalMS: Int64 = 3500

    /// The wall clock now, unix milliseconds (nil until the shell sent it).
    var wallNowMS: Int64? { resume.wallOffsetMS.map { $0 + now.microseconds / 1000 } }

    /// How far a podcast goes back when it starts again after `awayMS` away (paused, or left): nothing
    /// under a minute, then straight lines between the points of `rewindCurve` (2 s at 1 min, 10 s at
    /// 10 min, 15 s at 1 h, 30 s at a day), 30 s after that.
    public static func rewindMS(awayMS: Int64) -> Int {
        let curve = rewindCurve
        guard awayMS >= curve[0].awayMS else { return 0 }
        for (a, b) in zip(curve, curve.dropFirst()) where awayMS < b.awayMS {
            let fraction = Double(awayMS - a.awayMS) / Double(b.awayMS - a.awayMS)
            return a.rewindMS + Int((Double(b.rewindMS - a.rewindMS) * fraction).rounded())
        }
        return curve[curve.count - 1].rewindMS
    }

    /// The rewind after a time away (both milliseconds), at the corners of the curve.
    static let rewindCurve: [(awayMS: Int64, rewindMS: Int)] = [
        (60_000, 2_000), (600_000, 10_000), (3_600_000, 15_000), (86_400_000, 30_000),
    ]

    /// What a checkpoint stores now.
    public var resumeState: ResumeState {
        ResumeState(
            queue: player.queue, unshuffledQueue: unshuffledTracks, current: player.current,
            positionMS: player.elapsedMS, status: player.status)
    }

    /// The list order while shuffled, as track ids.
    var unshuffledTracks: [TrackID]? {
        guard let order = queue.unshuffledOrder else { return nil }
        let byID = Dictionary(uniqueKeysWithValues: player.entries.entries.map { ($0.id, $0.track) })
        return order.compactMap { byID[$0] }
    }

    /// Puts `queue` in the player; with a list order (`unshuffled`, the same tracks), song ids follow
    /// that order so un-shuffling later restores it.
    mutating func loadQueue(_ queue: [TrackID], unshuffled: [TrackID]?) {
        guard let unshuffled, unshuffled.sorted() == queue.sorted() else {
            player.entries.replace(with: queue)
            self.queue.unshuffledOrder = nil
            return
        }
        player.entries.replace(with: unshuffled)
        let listOrder = player.entries.ids
        var unused: [TrackID: [Int]] = [:]
        for (id, track) in zip(listOrder, unshuffled).reversed() { unused[track, default: []].append(id) }
        let order = queue.map { unused[$0]!.removeLast() }
        player.entries.reorder(byIDs: order)
        self.queue.unshuffledOrder = listOrder
    }

    /// A checkpoint of the current state, and the current episode's place: what the shell stores when it
    /// shuts down.
    public func checkpointEffects() -> [Effect] {
        var effects: [Effect] = [.checkpoint(resumeState)]
        if let p = resume.playThrough, p.isPodcast, !p.episodeDone, player.hasCurrent {
            effects.append(.bookmark(p.id, ms: player.elapsedMS))
        }
        return effects
    }

    /// Brings back a saved queue, paused at its position (playing, with Resume Playing on, when it was).
    /// A queue saved with no current entry (stopped after a `clear` and `add`, or its current track gone
    /// from the library) comes back stopped, as MPD's state file brings back its queue.
    /// Ignored once something else is current or queued (the listener was quicker than the restore).
    mutating func restore(_ saved: ResumeState) -> [Effect] {
        guard !player.hasCurrent, saved.current != nil || player.queue.isEmpty else { return [] }
        var queue = saved.queue
        var current = saved.current
        var unshuffled = saved.unshuffledQueue
        if settings.shuffle == .off, let list = unshuffled {
            // Shuffle was turned off since: back to list order, on the same track, as turning it off
            // does (`reshuffle`): songs removed since left out, songs added since at the end.
            var left = queue.reduce(into: [TrackID: Int]()) { $0[$1, default: 0] += 1 }
            var order: [TrackID] = []
            for track in list + queue where left[track, default: 0] > 0 {
                order.append(track)
                left[track]! -= 1
            }
            current = current.flatMap { c in queue.indices.contains(c) ? order.firstIndex(of: queue[c]) : nil }
            queue = order
            unshuffled = nil
        }
        if let c = current, !queue.indices.contains(c) { current = nil }
        guard !queue.isEmpty else { return [] }
        loadQueue(queue, unshuffled: settings.shuffle == .off ? nil : unshuffled)
        guard let current else {
            // Stopped, nothing current: the queue only.
            player.current = nil
            player.status = .stopped
            player.elapsedMS = 0
            self.queue.currentTrack = nil
            resume.lastStatus = .stopped
            resume.lastCheckpoint = now
            return [.playback(.replaceQueue(queue, current: nil)), .notify(.playlist), .notify(.player)]
        }
        player.current = current
        player.status = .paused
        player.elapsedMS = max(0, saved.positionMS)
        self.queue.currentTrack = nil
        screen.nowPlayingSince = now
        resume.shellEmpty = true
        resume.pendingStart = nil
        let awayMS = wallNowMS.map { saved.savedAtMS > 0 ? max(0, $0 - saved.savedAtMS) : 0 } ?? 0
        resume.pausedSince = now.adding(ms: -awayMS)
        resume.lastStatus = .paused
        resume.playThrough = newPlayThrough(positionMS: player.elapsedMS)
        // Stored as it is: no checkpoint for the restore itself (it would re-stamp the time away).
        resume.lastCheckpoint = now
        var effects: [Effect] = [.playback(.replaceQueue(queue, current: nil)), .notify(.playlist), .notify(.player)]
        if settings.resumePlaying && saved.status == .playing {
            effects += playPause()
        }
        return effects
    }

    /// Plays the paused current entry again. A podcast paused for a while rewinds first
    /// (`rewindMS(awayMS:)`). A restored entry, which the playback shell has not loaded, is loaded
    /// (play, then seek to its place) instead of resumed.
    mutating func resumePaused() -> [Effect] {
        player.status = .playing
        var rewound = false
        if let p = resume.playThrough, p.isPodcast, let since = resume.pausedSince,
            case let rewind = Self.rewindMS(awayMS: now.milliseconds(since: since)), rewind > 0
        {
            player.elapsedMS = max(0, player.elapsedMS - rewind)
            rewound = true
        }
        var effects: [Effect]
        if resume.shellEmpty, let index = player.current {
            resume.shellEmpty = false
            resume.loadedRestored = true
            resume.pendingStart = PendingStart(index: index, ms: player.elapsedMS)
            effects = [.playback(.play(index: index))]
            if player.elapsedMS > 0 { effects.append(.playback(.seek(ms: player.elapsedMS))) }
        } else {
            effects = [.playback(.resume)]
            if rewound { effects.append(.playback(.seek(ms: player.elapsedMS))) }
        }
        return effects + [.notify(.player)]
    }

    /// Resume's and play counts' look at what `event` did; returns `effects` with theirs added.
    mutating func afterEvent(_ event: Event, _ effects: [Effect]) -> [Effect] {
        var effects = effects
        if case .wallClock(let unixMS, _) = event {
            resume.wallOffsetMS = unixMS - now.microseconds / 1000
        }
        if case .clock(let clock, _) = event {
            resume.wallOffsetMS = clock.unixMS - now.microseconds / 1000
        }
        let restored: Bool
        if case .restore = event { restored = true } else { restored = false }
        // Loading a restored entry goes on with its play-through; any other play starts a new one.
        let playCommand = !resume.loadedRestored && effects.contains { if case .playback(.play) = $0 { true } else { false } }
        resume.loadedRestored = false
        if playCommand { resume.shellEmpty = false }

        // Play-throughs: a new one when an entry started or another track became current.
        var started = false
        if !restored, playCommand || player.currentID != resume.playThrough?.id || !player.hasCurrent {
            if let old = resume.playThrough {
                var ended = false, failed = false
                if case .playback(.finished(let i), _) = event { ended = i == old.index }
                if case .playback(.failed(let i, _), _) = event { failed = i == old.index }
                effects += leave(old, ended: ended, failed: failed)
            }
            resume.pendingStart = nil
            resume.playThrough = newPlayThrough(positionMS: player.elapsedMS)
            started = resume.playThrough != nil
            if started, playCommand { effects += resumeEpisode() }
        }
        if case .playback(.started(let index), _) = event, let p = resume.pendingStart, p.index == index {
            player.elapsedMS = p.ms
            resume.pendingStart = nil
        }

        if player.status == .paused && resume.lastStatus != .paused { resume.pausedSince = now }
        if player.status != .paused && !restored { resume.pausedSince = nil }
        resume.lastStatus = player.status

        if var p = resume.playThrough {
            effects += observe(&p)
            resume.playThrough = p
        }

        // Checkpoints: after each change, and when one is due while playing.
        let changed = effects.contains {
            if case .notify(let s) = $0 { s == .player || s == .playlist } else { false }
        }
        let due = player.status == .playing
            && (resume.lastCheckpoint.map { now.milliseconds(since: $0) >= Self.checkpointIntervalMS } ?? true)
        if !restored && (changed || due) {
            resume.lastCheckpoint = now
            effects += checkpointEffects()
        }
        return effects
    }

    /// A podcast starting from its beginning goes to its bookmark instead, rewound by the time away.
    private mutating func resumeEpisode() -> [Effect] {
        guard let p = resume.playThrough, p.isPodcast, player.elapsedMS == 0, let index = player.current,
            let mark = try? library.bookmark(of: p.id), mark.positionMS > 0, mark.positionMS < p.episodeDoneAtMS
        else { return [] }
        var away: Int64 = 0
        if let wall = wallNowMS, let saved = mark.savedAtMS { away = max(0, wall - saved) }
        let target = max(0, mark.positionMS - Self.rewindMS(awayMS: away))
        player.elapsedMS = target
        resume.playThrough?.lastMS = target
        // Past the played mark already: counted when it was passed, before.
        resume.playThrough?.counted = target >= p.playedAtMS
        resume.pendingStart = PendingStart(index: index, ms: target)
        return target > 0 ? [.playback(.seek(ms: target))] : []
    }
}
