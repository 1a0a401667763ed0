/// Reports from playback, and reshuffling the queue when Shuffle changes.
extension Engine {
    mutating func handlePlayback(_ report: PlaybackReport) -> [Effect] {
        switch report {
        case .started(let index):
            // The entry the engine started is heard: nothing to change (where it is, and whether it
            // plays or is paused, were set by the commands, and a `seekcur` sent at once may already
            // have moved it). Only another entry, which the player moved to by itself, is news.
            guard player.queue.indices.contains(index), player.current != index else { return [] }
            queue.currentTrack = nil
            screen.nowPlayingSince = now
            player.current = index
            player.elapsedMS = 0
            return [.notify(.player)]
        case .position(let ms):
            player.elapsedMS = max(0, ms)
            return []
        case .paused:
            player.status = .paused
            return [.notify(.player)]
        case .resumed:
            player.status = .playing
            return [.notify(.player)]
        case .finished(let index):
            return advance(after: index, failed: false)
        case .failed(let index, _):
            return advance(after: index, failed: true)
        case .outputs(let problem):
            // Kept whatever the player does; Now Playing and `status` show it only while playing.
            guard player.outputProblem != problem else { return [] }
            player.outputProblem = problem
            return player.status == .playing ? [.notify(.player)] : []
        }
    }

    /// Which entry follows entry `index` when it ends: itself (Repeat One, or MPD's single with repeat),
    /// the next one, the first (Repeat All), or nil to stop (the end, or MPD's single without repeat).
    /// With consume the entry leaves the queue, so it never repeats. Indices are today's, before any
    /// consume removal.
    public func entry(after index: Int) -> Int? {
        let count = player.entries.count
        // End of Track: the audio thread gets nothing to join; `sleepAtEndOfTrack` decides once it ended.
        if sleepTimer == .endOfTrack { return nil }
        guard count > 0 else { return nil }
        let singleTrack = settings.repeatMode == .one || player.single != .off
        if singleTrack {
            let repeats = settings.repeatMode != .off && !player.consume
            return repeats && index < count ? index : nil
        }
        if index + 1 < count { return index + 1 }
        return settings.repeatMode == .all && !(player.consume && count == 1) ? 0 : nil
    }

    /// What plays after entry `index` ended (or failed: then the next one, whatever the repeat mode).
    private mutating func advance(after index: Int, failed: Bool) -> [Effect] {
        if !failed, let asleep = sleepAtEndOfTrack(after: index) { return asleep }
        // Paused since the player moved on (the end was heard before the pause was carried out): the
        // next entry is current, and stays paused.
        let paused = player.status == .paused
        var effects: [Effect] = []
        var next: Int?
        let singleStop = !failed && (settings.repeatMode == .one || player.single != .off)
        if failed {
            next = index + 1 < player.entries.count ? index + 1 : (settings.repeatMode == .all ? 0 : nil)
            if next == index { next = nil }
        } else {
            next = entry(after: index)
            if player.single == .oneshot {
                player.single = .off
                effects.append(.notify(.options))
            }
        }
        if let next {
            effects += startEntry(next)
            if paused {
                player.status = .paused
                effects.append(.playback(.pause))
            }
        } else if singleStop && player.entries.indices.contains(index) {
            // MPD's single: stopped after the track, which stays current.
            player.status = .stopped
            player.elapsedMS = 0
            effects.append(.notify(.player))
        } else {
            stopAtEnd()
            effects.append(.notify(.player))
        }
        if player.consume && !failed { effects += consumeEntry(index) }
        return effects
    }

    /// The queue ran out: nothing is current any more, and Now Playing (and menus on top of it) go away.
    mutating func stopAtEnd() {
        player.status = .stopped
        player.current = nil
        player.elapsedMS = 0
        queue.currentTrack = nil
        if let i = stack.firstIndex(where: { $0.destination == .nowPlaying }) {
            stack.removeSubrange(i...)
            leftNowPlaying()
        }
        clampCursor()
    }

    /// MPD's consume: entry `index` (played or skipped) leaves the queue.
    mutating func consumeEntry(_ index: Int) -> [Effect] {
        guard player.entries.indices.contains(index) else { return [] }
        player.entries.remove(index..<index + 1)
        if let c = player.current, c > index { player.current = c - 1 }
        if player.entries.isEmpty { stopAtEnd() }
        return [.playback(.replaceQueue(player.queue, current: player.current)), .notify(.playlist)]
    }

    /// Re-orders the queue after Shuffle changed, keeping the current track playing. Turning it off
    /// restores the list order with or without a current track; turning it on with none current waits
    /// for the next `play` (`playCurrent`).
    mutating func reshuffle() -> [Effect] {
        let currentSongID = player.currentSongID
        if settings.shuffle == .off {
            guard let original = queue.unshuffledOrder else { return [] }
            queue.unshuffledOrder = nil
            player.entries.reorder(byIDs: original)
        } else {
            guard let currentSongID else { return [] }
            // The list order without songs removed since, and with songs added since at its end.
            let entryIndex = Dictionary(uniqueKeysWithValues: player.entries.ids.enumerated().map { ($1, $0) })
            var base = (queue.unshuffledOrder ?? []).filter { entryIndex[$0] != nil }
            let known = Set(base)
            base += player.entries.ids.filter { !known.contains($0) }
            queue.unshuffledOrder = base
            let tracks = base.map { player.entries[entryIndex[$0]!].track }
            let first = base.firstIndex(of: currentSongID) ?? 0
            let (order, _) = shuffled(tracks, keepingFirst: first, by: settings.shuffle)
            player.entries.reorder(byIDs: order.map { base[$0] })
        }
        player.current = currentSongID.map { player.entries.index(ofID: $0) ?? 0 }
        return [.playback(.replaceQueue(player.queue, current: player.current)), .notify(.playlist)]
    }

    /// A play order for `ids` (indices into it) in which entry `first` (or, by album, its album) comes
    /// first, and where in that order entry `first` is.
    ///
    /// By album, runs of consecutive tracks of one album keep their order and the runs are shuffled;
    /// that needs each track's album, so queues of more than `albumShuffleLimit` tracks shuffle by song.
    mutating func shuffled(_ ids: [TrackID], keepingFirst first: Int, by mode: Settings.Shuffle) -> ([Int], Int) {
        guard ids.indices.contains(first) else { return (Array(ids.indices), 0) }
        if mode == .albums && ids.count <= Self.albumShuffleLimit {
            var groups: [[Int]] = []
            var lastAlbum: String?
            var firstGroup = 0
            for (i, id) in ids.enumerated() {
                let t = try? library.track(id)
                let album = t.map { $0.albumID.map { "#\($0)" } ?? $0.album } ?? ""
                if groups.isEmpty || album != lastAlbum { groups.append([]) }
                groups[groups.count - 1].append(i)
                lastAlbum = album
                if i == first { firstGroup = groups.count - 1 }
            }
            let chosen = groups.remove(at: firstGroup)
            groups.shuffle(using: &queue.random)
            return (chosen + groups.flatMap { $0 }, chosen.firstIndex(of: first) ?? 0)
        }
        var rest = Array(ids.indices)
        rest.remove(at: first)
        rest.shuffle(using: &queue.random)
        return ([first] + rest, 0)
    }

    /// The longest queue shuffled by album (each track's album is read once).
    static let albumShuffleLimit = 5000
}
