/// Remote control (the MPD socket): playback and queue requests with MPD's semantics, checked against
/// the queue as it is now.
extension Engine {
    /// Carries out `request` at `time`; the outcome holds the reply or the refusal, and the effects.
    public mutating func control(_ request: ControlRequest, at time: Timestamp) -> ControlOutcome {
        now = max(now, time)
        var effects: [Effect] = []
        let result: Result<[Int], ControlError>
        do {
            result = .success(try perform(request, effects: &effects))
        } catch {
            result = .failure(error)
        }
        // Resume and play counts look at what the request did, as after any event.
        effects = afterEvent(.tick(now), effects)
        playedTime.update(playing: player.status == .playing, at: now)
        if let frame = renderIfChanged() { effects.append(.render(frame)) }
        return ControlOutcome(result: result, effects: effects)
    }

    private mutating func perform(_ request: ControlRequest, effects: inout [Effect]) throws(ControlError) -> [Int] {
        switch request {
        case .play(let position):
            guard let position, position >= 0 else { effects += playCurrent(); return [] }
            guard player.entries.indices.contains(position) else { throw .badSongIndex }
            effects += startEntry(position)
        case .playID(let id):
            guard let id else { effects += playCurrent(); return [] }
            effects += startEntry(try index(ofID: id))
        case .pause(let pause):
            effects += setPaused(pause ?? (player.status == .playing))
        case .stop:
            effects += stopPlayback()
        case .next:
            guard player.status != .stopped, let current = player.current else { throw .notPlaying }
            effects += remoteNext(from: current)
        case .previous:
            guard player.status != .stopped, let current = player.current else { throw .notPlaying }
            let count = player.entries.count
            let target = current > 0 ? current - 1 : (settings.repeatMode == .all ? count - 1 : current)
            effects += startEntry(target)
        case .seek(let position, let ms):
            guard player.entries.indices.contains(position) else { throw .badSongIndex }
            effects += seek(entry: position, ms: ms)
        case .seekID(let id, let ms):
            effects += seek(entry: try index(ofID: id), ms: ms)
        case .seekCurrent(let ms, let relative):
            guard player.status != .stopped, let current = player.current else { throw .notPlaying }
            effects += seek(entry: current, ms: relative ? player.elapsedMS + ms : ms)
        case .setVolume(let volume):
            effects += setVolume(volume)
        case .changeVolume(let delta):
            effects += setVolume(settings.volume + delta)
        case .random(let on):
            // MPD forgets the current song when random changes while stopped (`status` then names no
            // `song`), so nothing is reordered around it; `play` starts a fresh order (`playCurrent`).
            if player.status == .stopped, on != (settings.shuffle != .off) { player.current = nil }
            var new = settings
            new.shuffle = on ? (settings.shuffle == .off ? .songs : settings.shuffle) : .off
            effects += apply(settings: new, persist: true)
            // (Compared by the field: settings holding a nan `mixrampdb` never equal themselves.)
            if new.shuffle == settings.shuffle { effects.append(.notify(.options)) }
        case .repeatMode(let on):
            effects += setModes(repeatOn: on, single: mpdSingle)
        case .single(let single):
            effects += setModes(repeatOn: settings.repeatMode != .off, single: single)
        case .consume(let on):
            player.consume = on
            effects.append(.notify(.options))
        case .replayGainMode(let mode):
            var new = settings
            new.replayGainMode = mode
            effects += apply(settings: new, persist: true)
        case .crossfade(let seconds):
            var new = settings
            new.crossfadeSeconds = max(0, seconds)
            effects += apply(settings: new, persist: true)
            // MPD announces `options` for each of these three, changed or not.
            effects.append(.notify(.options))
        case .mixRampDB(let db):
            var new = settings
            new.mixRampDB = db
            effects += apply(settings: new, persist: true)
            effects.append(.notify(.options))
        case .mixRampDelay(let seconds):
            var new = settings
            new.mixRampDelay = seconds
            effects += apply(settings: new, persist: true)
            effects.append(.notify(.options))
        case .add(let tracks, let position):
            guard player.entries.count + tracks.count <= PlayQueue.clientLimit else { throw .queueTooLarge }
            let at = try resolve(position, limit: player.entries.count)
            return insert(tracks, at: at, effects: &effects)
        case .delete(let slice):
            guard let range = try range(of: slice) else { return [] }
            effects += delete(range)
        case .deleteID(let id):
            let i = try index(ofID: id)
            effects += delete(i..<i + 1)
        case .move(let slice, let to):
            guard let range = try range(of: slice) else { return [] }
            effects += move(range, to: try resolve(to, limit: player.entries.count - range.count))
        case .moveID(let id, let to):
            let i = try index(ofID: id)
            effects += move(i..<i + 1, to: try resolve(to, limit: player.entries.count - 1))
        case .swap(let a, let b):
            guard player.entries.indices.contains(a), player.entries.indices.contains(b) else { throw .badSongIndex }
            effects += reorder { $0.swapAt(a, b) }
        case .swapID(let a, let b):
            let (i, j) = (try index(ofID: a), try index(ofID: b))
            effects += reorder { $0.swapAt(i, j) }
        case .shuffle(let slice):
            var whole = player.entries.indices
            if let slice {
                guard let r = try range(of: slice) else { return [] }
                whole = r
            }
            effects += shuffleRange(whole)
        case .clear:
            // As MPD: a new queue version and an idle `playlist` even when the queue was empty (a
            // client's command list `clear` + a failing `add` still changed the queue).
            let wasEmpty = player.entries.isEmpty && player.status == .stopped
            queue.unshuffledOrder = nil
            player.entries.removeAll()
            effects.append(.notify(.playlist))
            if wasEmpty { return [] }
            stopAtEnd()
            effects += [.playback(.stop), .playback(.replaceQueue([], current: nil)), .notify(.player)]
        case .priority(let priority, let slices):
            let ranges = try slices.map { s throws(ControlError) in try range(of: s) ?? 0..<0 }
            for r in ranges { for i in r { player.entries.setPriority(priority, at: i) } }
            effects.append(.notify(.playlist))
        case .priorityID(let priority, let ids):
            let positions = try ids.map { id throws(ControlError) in try index(ofID: id) }
            for i in positions { player.entries.setPriority(priority, at: i) }
            effects.append(.notify(.playlist))
        case .openScreen(let name):
            effects += try openScreen(name)
        }
        return []
    }

    /// Replaces the menu stack with the path from the main menu to the screen `name` (a Wheel
    /// calibration in progress is cancelled, as by Menu), each page with its cursor on top.
    private mutating func openScreen(_ name: String) throws(ControlError) -> [Effect] {
        // Speakers only with a Snapcast server configured (the service then sends its state).
        let hidden = speakers == nil ? "speakers" : nil
        guard name != hidden, let path = MenuCatalog.path(to: name, settings: settings) else {
            throw .noSuchScreen(name, known: MenuCatalog.openableScreens(settings: settings).filter { $0 != hidden })
        }
        let effects = cancelWheelSetup()
        if stack.contains(where: { $0.destination == .nowPlaying }) { leftNowPlaying() }
        stack = [Page(.menu(.main))]
        for destination in path.dropFirst() { push(destination) }
        return effects
    }

    /// MPD's `single` as the engine holds it: Repeat One is repeat + single.
    public var mpdSingle: Player.Single { settings.repeatMode == .one ? .on : player.single }

    /// Sets MPD's repeat and single flags: repeat with single is Repeat One, repeat alone Repeat All;
    /// single without repeat (stop after the track) is kept beside the settings.
    private mutating func setModes(repeatOn: Bool, single: Player.Single) -> [Effect] {
        var new = settings
        new.repeatMode = repeatOn ? (single == .on ? .one : .all) : .off
        player.single = new.repeatMode == .one ? .off : single
        var effects = apply(settings: new, persist: true)
        if !effects.contains(.notify(.options)) { effects.append(.notify(.options)) }
        return effects
    }

    private func index(ofID id: Int) throws(ControlError) -> Int {
        guard let i = player.entries.index(ofID: id) else { throw .noSuchSong }
        return i
    }

    /// An insertion point no further than `limit`.
    private func resolve(_ position: QueuePosition?, limit: Int) throws(ControlError) -> Int {
        switch position {
        case nil: return limit
        case .absolute(let p):
            guard p <= limit else { throw .positionTooLarge(p) }
            return p
        case .afterCurrent(let n):
            guard let c = player.current, player.hasCurrent else { throw .noCurrentSong }
            guard c + 1 + n <= limit else { throw .positionTooLarge(n) }
            return c + 1 + n
        case .beforeCurrent(let n):
            guard let c = player.current, player.hasCurrent else { throw .noCurrentSong }
            guard n <= c, c - n <= limit else { throw .positionTooLarge(n) }
            return c - n
        }
    }

    /// The positions of `slice`: its end clamped; nil when it starts at the end (MPD answers OK).
    private func range(of slice: QueueSlice) throws(ControlError) -> Range<Int>? {
        let count = player.entries.count
        guard slice.start >= 0, slice.start <= count else { throw .badSongIndex }
        let end = min(slice.end ?? count, count)
        guard slice.start < end else { return nil }
        return slice.start..<end
    }

    /// `play` without a position: resume when paused, start the current (or first) entry when stopped.
    private mutating func playCurrent() -> [Effect] {
        switch player.status {
        case .playing: return []
        case .paused: return setPaused(false)
        case .stopped:
            guard !player.entries.isEmpty else { return [] }
            if let current = player.current, player.entries.indices.contains(current) { return startEntry(current) }
            guard settings.shuffle != .off else { return startEntry(0) }
            // Shuffle on and nothing current (MPD's random order starts anew): a random entry first,
            // the queue shuffled around it, as when Shuffle turns on while a song plays.
            player.current = Int.random(in: player.entries.indices, using: &queue.random)
            let effects = reshuffle()
            return effects + startEntry(player.current ?? 0)
        }
    }

    private mutating func setPaused(_ pause: Bool) -> [Effect] {
        switch (player.status, pause) {
        case (.playing, true):
            player.status = .paused
            return [.playback(.pause), .notify(.player)]
        case (.paused, false):
            return resumePaused()
        default:
            return []
        }
    }

    /// Stops; the current entry stays current (MPD shows it in `status`).
    private mutating func stopPlayback() -> [Effect] {
        guard player.status != .stopped else { return [] }
        player.status = .stopped
        player.elapsedMS = 0
        return [.playback(.stop), .notify(.player)]
    }

    /// MPD's `next`: the following entry (wrapping with repeat), stopping after the last; with consume
    /// the entry left behind leaves the queue.
    private mutating func remoteNext(from current: Int) -> [Effect] {
        let count = player.entries.count
        var effects: [Effect]
        if current + 1 < count {
            effects = startEntry(current + 1)
        } else if settings.repeatMode != .off && count > (player.consume ? 1 : 0) {
            effects = startEntry(0)
        } else {
            stopAtEnd()
            effects = [.playback(.stop), .notify(.player)]
        }
        if player.consume { effects += consumeEntry(current) }
        return effects
    }

    private mutating func seek(entry index: Int, ms: Int) -> [Effect] {
        var effects: [Effect] = []
        // A seek elsewhere (or while stopped) starts that entry; one while paused stays paused.
        if player.current != index || player.status == .stopped { effects += startEntry(index) }
        let duration = loadCurrentTrack()?.durationMS ?? Int.max
        player.elapsedMS = max(0, min(ms, max(0, duration - 1)))
        effects += [.playback(.seek(ms: player.elapsedMS)), .notify(.player)]
        return effects
    }

    private mutating func setVolume(_ volume: Int) -> [Effect] {
        var new = settings
        new.volume = max(0, min(settings.volumeLimit, volume))
        var effects = apply(settings: new, persist: true)
        effects.append(.notify(.mixer))
        return effects
    }

    private mutating func insert(_ tracks: [TrackID], at index: Int, effects: inout [Effect]) -> [Int] {
        guard !tracks.isEmpty else { return [] }
        let ids = player.entries.insert(tracks, at: index)
        if let c = player.current, c >= index {
            player.current = c + tracks.count
        }
        effects += [.playback(.insert(tracks, at: index)), .notify(.playlist)]
        return ids
    }

    /// Removes entries; deleting the playing entry plays the one after it (or stops at the end).
    private mutating func delete(_ range: Range<Int>) -> [Effect] {
        let wasStatus = player.status
        var currentGone = false
        if let c = player.current {
            if range.contains(c) {
                currentGone = true
                player.current = nil
            } else if c >= range.upperBound {
                player.current = c - range.count
            }
        }
        player.entries.remove(range)
        var effects: [Effect] = [.playback(.replaceQueue(player.queue, current: player.current)), .notify(.playlist)]
        if currentGone {
            let following = range.lowerBound
            if wasStatus == .playing && player.entries.indices.contains(following) {
                effects += startEntry(following)
            } else {
                effects.append(.playback(.stop))
                if player.entries.indices.contains(following) {
                    player.current = following
                    player.status = .stopped
                    player.elapsedMS = 0
                    queue.currentTrack = nil
                } else {
                    stopAtEnd()
                }
                effects.append(.notify(.player))
            }
        }
        return effects
    }

    private mutating func move(_ range: Range<Int>, to: Int) -> [Effect] {
        reorder { $0.move(range, to: to) }
    }

    /// Changes the order of the entries, the current one staying current.
    private mutating func reorder(_ body: (inout PlayQueue) -> Void) -> [Effect] {
        let currentID = player.currentSongID
        body(&player.entries)
        if let currentID { player.current = player.entries.index(ofID: currentID) }
        return [.playback(.replaceQueue(player.queue, current: player.current)), .notify(.playlist)]
    }

    /// MPD's `shuffle`: the entries of `range` in a random order, the current one (if inside) first.
    private mutating func shuffleRange(_ range: Range<Int>) -> [Effect] {
        guard range.count > 1 else { return [] }
        var ids = Array(player.entries.ids[range])
        ids.shuffle(using: &queue.random)
        if let currentID = player.currentSongID, let i = ids.firstIndex(of: currentID), player.status != .stopped {
            ids.swapAt(0, i)
        }
        let order = Array(player.entries.ids[..<range.lowerBound]) + ids + Array(player.entries.ids[range.upperBound...])
        return reorder { $0.reorder(byIDs: order) }
    }
}

extension Engine {
    /// Where the user is: the page's title, cursor, number of lines, stack depth and the screen's
    /// stable name (`MenuCatalog.identifier(of:)`), for the control socket's `screen` extension.
    public mutating func position() -> (title: String, cursor: Int, count: Int, depth: Int, menu: String) {
        let page = top
        let title = title(of: page.destination)
        // The Wheel calibration covers the page it was opened over (`view()` draws it first).
        let menu = wheelSetup == nil ? MenuCatalog.identifier(of: page.destination) : MenuCatalog.wheelSetupIdentifier
        return (title, page.cursor, lineCount(of: page.destination), stack.count, menu)
    }
}
