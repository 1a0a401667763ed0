/// Playback from the UI: starting lists, skipping, seeking, volume, and what happens after a track ends.
extension Engine {
    /// Plays `source` starting at row `index` (select on a song plays the list it is in) and shows Now Playing.
    mutating func play(source: ListSource, from index: Int) -> [Effect] {
        let ids: [TrackID]
        switch source {
        case .library(let list): ids = (try? library.trackIDs(of: list)) ?? []
        case .onTheGo: ids = queue.onTheGo
        }
        guard ids.indices.contains(index) else { return [] }
        var effects = startQueue(ids, at: index, shuffle: settings.shuffle)
        effects += showNowPlaying()
        return effects
    }

    /// Shuffle Songs: the whole library, shuffled (by album when Shuffle is set to Albums).
    mutating func shuffleSongs() -> [Effect] {
        let ids = (try? library.trackIDs(of: .songs)) ?? []
        guard !ids.isEmpty else { return [] }
        let start = Int(queue.random.next() % UInt64(ids.count))
        var effects = startQueue(ids, at: start, shuffle: settings.shuffle == .albums ? .albums : .songs)
        effects += showNowPlaying()
        return effects
    }

    mutating func showNowPlaying() -> [Effect] {
        if top.destination != .nowPlaying { push(.nowPlaying) }
        return []
    }

    /// Replaces the queue with `ids` (shuffled unless `shuffle` is off) and plays entry `index` of `ids`.
    mutating func startQueue(_ ids: [TrackID], at index: Int, shuffle: Settings.Shuffle) -> [Effect] {
        var start = index
        queue.unshuffledOrder = nil
        player.entries.replace(with: ids)
        if shuffle != .off {
            let listOrder = player.entries.ids
            // The list order is kept to go back to when Shuffle is turned off. Shuffle Songs with Shuffle
            // off has none: its queue is the shuffle itself (and a restart must bring that order back,
            // not the library's).
            if settings.shuffle != .off { queue.unshuffledOrder = listOrder }
            let (order, s) = shuffled(ids, keepingFirst: index, by: shuffle)
            player.entries.reorder(byIDs: order.map { listOrder[$0] })
            start = s
        }
        return [.playback(.replaceQueue(player.queue, current: nil)), .notify(.playlist)] + startEntry(start)
    }

    /// Starts queue entry `index` from its beginning.
    mutating func startEntry(_ index: Int) -> [Effect] {
        player.current = index
        player.status = .playing
        player.elapsedMS = 0
        queue.currentTrack = nil
        screen.nowPlayingSince = now
        return [.playback(.play(index: index)), .notify(.player)]
    }

    mutating func playNext(_ ids: [TrackID]) -> [Effect] {
        guard !ids.isEmpty else { return [] }
        guard let current = player.current, player.hasCurrent else {
            return startQueue(ids, at: 0, shuffle: .off)
        }
        let songIDs = player.entries.insert(ids, at: current + 1)
        if let currentSongID = player.currentSongID, let i = queue.unshuffledOrder?.firstIndex(of: currentSongID) {
            queue.unshuffledOrder?.insert(contentsOf: songIDs, at: i + 1)
        }
        return [.playback(.insert(ids, at: current + 1)), .notify(.playlist)]
    }

    /// Play/Pause. With a queue but nothing current (stopped after a client's `clear` and `add`, or a
    /// queue restored so) it plays the queue from its first entry, as MPD's `play` does.
    mutating func playPause() -> [Effect] {
        guard let current = player.current, player.hasCurrent else {
            return player.queue.isEmpty ? [] : startEntry(0)
        }
        switch player.status {
        case .playing:
            player.status = .paused
            return [.playback(.pause), .notify(.player)]
        case .paused:
            return resumePaused()
        case .stopped:
            return startEntry(current)
        }
    }

    /// Next (or `by` entries on), wrapping only with Repeat All.
    mutating func skip(by offset: Int) -> [Effect] {
        guard let current = player.current, !player.queue.isEmpty else { return [] }
        var target = current + offset
        if !player.queue.indices.contains(target) {
            guard settings.repeatMode == .all else { return [] }
            target = (target % player.queue.count + player.queue.count) % player.queue.count
        }
        return startEntry(target)
    }

    /// Previous: restarts the track when more than 3 s in, else goes to the previous one.
    mutating func previous() -> [Effect] {
        guard let current = player.current, player.hasCurrent else { return [] }
        if player.elapsedMS > 3000 || (current == 0 && settings.repeatMode != .all) {
            player.elapsedMS = 0
            return [.playback(.seek(ms: 0))]
        }
        return skip(by: -1)
    }

    /// Hold Next/Previous: seeks, faster the longer it is held (1 s, then 3 s, then 10 s per repeat).
    mutating func seek(direction: Int, repeatCount: Int) -> [Effect] {
        let seconds = repeatCount <= 5 ? 1 : (repeatCount <= 15 ? 3 : 10)
        return seek(to: player.elapsedMS + direction * seconds * 1000)
    }

    /// The wheel in scrubbing mode: one second per (accelerated) item.
    mutating func scrub(by items: Int) -> [Effect] {
        seek(to: player.elapsedMS + items * 1000)
    }

    private mutating func seek(to ms: Int) -> [Effect] {
        guard player.hasCurrent else { return [] }
        let duration = loadCurrentTrack()?.durationMS ?? Int.max
        let target = max(0, min(ms, max(0, duration - 1)))
        guard target != player.elapsedMS else { return [] }
        player.elapsedMS = target
        return [.playback(.seek(ms: target)), .notify(.player)]
    }

    /// The wheel on Now Playing: 2 % per step up to the volume limit; the bar shows for 2 s.
    mutating func changeVolume(by steps: Int) -> [Effect] {
        screen.volumeShownUntil = now.adding(ms: Self.volumeOverlayMS)
        let volume = max(0, min(settings.volumeLimit, settings.volume + steps * 2))
        guard volume != settings.volume else { return [] }
        settings.volume = volume
        let click: [Effect] = settings.clicker == .off ? [] : [.click(settings.clicker)]
        return [.playback(.volume(volume)), .notify(.mixer)] + click
    }

    /// The wheel on Now Playing's shuffle, repeat and rating stops.
    mutating func adjustNowPlaying(by steps: Int) -> [Effect] {
        let delta = steps > 0 ? 1 : -1
        switch screen.nowPlayingMode {
        case .shuffle:
            let key = SettingKey.shuffle
            return apply(
                settings: key.applying(choice: key.choiceIndex(in: settings) + delta, to: settings), persist: true)
        case .repeatMode:
            let key = SettingKey.repeatMode
            return apply(
                settings: key.applying(choice: key.choiceIndex(in: settings) + delta, to: settings), persist: true)
        case .rating:
            guard let track = loadCurrentTrack() else { return [] }
            let rating = Rating.stepped(track.rating, by: delta)
            guard rating != track.rating else { return [] }
            return rate(track.id, rating: rating, backOut: false)
        case .normal, .scrubbing:
            return []
        }
    }

    /// The current track's info, read once per track.
    mutating func loadCurrentTrack() -> TrackInfo? {
        guard let id = player.currentID else { return nil }
        if let t = queue.currentTrack, t.id == id { return t }
        queue.currentTrack = try? library.track(id)
        return queue.currentTrack
    }
}

extension Engine {
    /// Milliseconds played since the start, up to the last event (`playedTime`; MPD's `playtime`).
    public var playedMS: Int64 { playedTime.milliseconds(at: now) }
}
