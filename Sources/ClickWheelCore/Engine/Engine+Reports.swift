/// Reports from playback, and reshuffling the queue when Shuffle changes.
extension Engine {
    mutating func handlePlayback(_ report: PlaybackReport) -> [Effect] {
        switch report {
        case .started(let index):
            guard player.queue.indices.contains(index) else { return [] }
            if player.current != index {
                currentTrack = nil
                nowPlayingSince = now
            }
            player.current = index
            player.status = .playing
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
            return advance(after: index, repeatOne: settings.repeatMode == .one)
        case .failed(let index, _):
            return advance(after: index, repeatOne: false)
        }
    }

    /// What plays after entry `index`: itself (Repeat One), the next one, the first (Repeat All), or nothing.
    private mutating func advance(after index: Int, repeatOne: Bool) -> [Effect] {
        if repeatOne && player.queue.indices.contains(index) { return startEntry(index) }
        if player.queue.indices.contains(index + 1) { return startEntry(index + 1) }
        if settings.repeatMode == .all && !player.queue.isEmpty { return startEntry(0) }
        player.status = .stopped
        player.current = nil
        player.elapsedMS = 0
        currentTrack = nil
        // Nothing is current any more: Now Playing (and menus on top of it) go away.
        if let i = stack.firstIndex(where: { $0.destination == .nowPlaying }) {
            stack.removeSubrange(i...)
            leftNowPlaying()
        }
        clampCursor()
        return [.notify(.player)]
    }

    /// Re-orders the queue after Shuffle changed, keeping the current track playing.
    mutating func reshuffle() -> [Effect] {
        guard let currentID = player.currentID else { return [] }
        if settings.shuffle == .off {
            guard let original = unshuffledQueue else { return [] }
            unshuffledQueue = nil
            player.queue = original
            player.current = original.firstIndex(of: currentID) ?? 0
        } else {
            let base = unshuffledQueue ?? player.queue
            unshuffledQueue = base
            let first = base.firstIndex(of: currentID) ?? 0
            let (queue, start) = shuffled(base, keepingFirst: first, by: settings.shuffle)
            player.queue = queue
            player.current = start
        }
        return [.playback(.replaceQueue(player.queue, current: player.current)), .notify(.playlist)]
    }

    /// `ids` shuffled, entry `first` (or, by album, its album) played first; returns the queue and
    /// the index in it of the original entry `first`.
    ///
    /// By album, runs of consecutive tracks of one album keep their order and the runs are shuffled;
    /// that needs each track's album, so queues of more than `albumShuffleLimit` tracks shuffle by song.
    mutating func shuffled(_ ids: [TrackID], keepingFirst first: Int, by mode: Settings.Shuffle) -> ([TrackID], Int) {
        guard ids.indices.contains(first) else { return (ids, 0) }
        if mode == .albums && ids.count <= Self.albumShuffleLimit {
            var groups: [[TrackID]] = []
            var lastAlbum: String?
            var firstGroup = 0
            for (i, id) in ids.enumerated() {
                let t = try? library.track(id)
                let album = t.map { $0.albumID.map { "#\($0)" } ?? $0.album } ?? ""
                if groups.isEmpty || album != lastAlbum { groups.append([]) }
                groups[groups.count - 1].append(id)
                lastAlbum = album
                if i == first { firstGroup = groups.count - 1 }
            }
            let chosen = groups.remove(at: firstGroup)
            groups.shuffle(using: &random)
            let offset = chosen.firstIndex(of: ids[first]) ?? 0
            return ((chosen + groups.flatMap { $0 }), offset)
        }
        var rest = ids
        let head = rest.remove(at: first)
        rest.shuffle(using: &random)
        return ([head] + rest, 0)
    }

    /// The longest queue shuffled by album (each track's album is read once).
    static let albumShuffleLimit = 5000
}
