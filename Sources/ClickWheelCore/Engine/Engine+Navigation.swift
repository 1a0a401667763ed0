/// Moving through the menus: scrolling, selecting, going back, context menus, library changes.
extension Engine {
    mutating func scroll(by items: Int) -> [Effect] {
        var page = top
        let count = lineCount(of: page.destination)
        guard count > 0, items != 0 else { return [] }
        let target = letterJumpTarget(items: items) ?? min(count - 1, max(0, page.cursor + items))
        guard target != page.cursor else { return [] }
        page.cursor = target
        page.anchor = anchor(of: page)
        stack[stack.count - 1] = page
        fixTop()
        screen.selectedSince = now
        screen.letterUntil = abs(items) > 1 ? now.adding(ms: 800) : screen.letterUntil
        return settings.clicker == .off ? [] : [.click(settings.clicker)]
    }

    mutating func select() -> [Effect] {
        let page = top
        if let items = fixedItems(of: page.destination) {
            guard items.indices.contains(page.cursor) else { return [] }
            return perform(menu: items[page.cursor].action)
        }
        if case .search(let state) = page.destination { return selectInSearch(state) }
        if case .alarmTime(let edit) = page.destination { return selectAlarmTime(edit) }
        if case .speakerVolume(let id) = page.destination { return toggleRoom(id) }
        guard case .list(let screen) = page.destination else { return [] }
        if page.cursor < screen.header.count { return perform(menu: screen.header[page.cursor].action) }
        let index = page.cursor - screen.header.count
        guard let row = row(index, of: screen.source) else { return [] }
        if let destination = MenuCatalog.destination(of: row, in: screen.source) {
            push(destination)
            return []
        }
        return play(source: screen.source, from: index)
    }

    mutating func perform(menu action: MenuAction) -> [Effect] {
        switch action {
        case .open(let destination):
            push(destination)
            return []
        case .shuffleSongs:
            return shuffleSongs()
        case .setting(let key):
            return apply(settings: key.applying(choice: key.choiceIndex(in: settings) + 1, to: settings), persist: true)
        case .rescanLibrary:
            return [.rescanLibrary]
        case .refreshPodcasts:
            return [.refreshPodcasts]
        case .resetSettings:
            var fresh = Settings()
            fresh.volume = min(settings.volume, fresh.volumeLimit)
            fresh.alarms = settings.alarms  // alarms are not settings to reset
            let effects = apply(settings: fresh, persist: true)
            _ = back()
            return effects
        case .none, .downloading:
            return []
        case .back:
            return back()
        case .playNext(let target):
            let effects = playNext(trackIDs(of: target))
            _ = back()
            return effects
        case .addToOnTheGo(let target):
            queue.onTheGo += trackIDs(of: target)
            _ = back()
            return [.notify(.storedPlaylist)]
        case .clearOnTheGo:
            queue.onTheGo = []
            _ = back()
            return [.notify(.storedPlaylist)]
        case .sleep(let choice):
            return setSleep(choice)
        case .power(let action):
            return power(action)
        case .calibrateWheel:
            return startWheelSetup()
        case .rate(let track, let rating):
            return rate(track, rating: rating, backOut: true)
        case .createAlarm, .alarmEnabled, .alarmDays, .alarmDay, .alarmSound, .alarmVolume, .deleteAlarm:
            return alarmAction(action)
        case .spokenWordSpeed(let percent):
            var new = settings
            new.spokenWordSpeed = percent
            _ = back()
            return apply(settings: new, persist: true)
        case .seekChapter(let index):
            return seekChapter(index)
        case .speakerRoom(let id):
            return toggleRoom(id)
        case .thisPi:
            return toggleThisPi()
        }
    }

    /// Sets `track`'s rating (0…10) and, from Rate Song, goes back to the list the song was chosen in.
    mutating func rate(_ track: TrackID, rating: Int, backOut: Bool) -> [Effect] {
        if backOut {
            _ = back()
            if case .context = top.destination { _ = back() }
        }
        if var current = loadCurrentTrack(), current.id == track {
            current.rating = rating
            queue.currentTrack = current
        }
        return [.rate(track, rating: max(0, min(Rating.maximum, rating)))]
    }

    /// The tracks a context menu's row stands for.
    mutating func trackIDs(of target: ContextTarget) -> [TrackID] {
        let row = target.row
        let list: BrowseList
        switch row.kind {
        case .song, .episode: return [row.id]
        case .album: list = .songsOfAlbum(row.id)
        case .artist: list = .songsOfArtist(row.id)
        case .genre: list = .songsOfGenre(row.id)
        case .composer: list = .songsOfComposer(row.id)
        case .playlist: list = .songsOfPlaylist(row.id)
        case .podcastShow: list = .episodesOfShow(row.id)
        }
        return (try? library.trackIDs(of: list)) ?? []
    }

    mutating func push(_ destination: Destination) {
        var page = withDownloadRows(Page(destination))
        page.anchor = anchor(of: page)
        if destination == .menu(.chapters) {
            // On the chapter playing.
            page.cursor = currentChapters().index(at: player.elapsedMS) ?? 0
        }
        if case .rating(let target) = destination {
            // On the song's own rating (a half star on the whole star above it).
            let rating = (try? library.track(target.row.id))?.rating ?? 0
            page.cursor = min(5, (rating + 1) / 2)
        }
        if destination == .menu(.audiobooks) {
            // On the speed in use, so the wheel moves from there to a slower or faster one.
            page.cursor = SpokenWordSpeed.percents.firstIndex(of: settings.spokenWordSpeed) ?? 2
        }
        stack.append(page)
        fixTop()
        if destination == .nowPlaying { screen.nowPlayingMode = .normal }
        input.accelerator.reset()
        screen.selectedSince = now
    }

    mutating func back() -> [Effect] {
        guard stack.count > 1 else { return [] }
        let popped = stack.removeLast()
        if popped.destination == .nowPlaying { leftNowPlaying() }
        input.accelerator.reset()
        screen.selectedSince = now
        clampCursor()
        return []
    }

    /// Leaves Now Playing's modes behind.
    mutating func leftNowPlaying() {
        screen.nowPlayingMode = .normal
        screen.volumeShownUntil = nil
    }

    mutating func openContextMenu() -> [Effect] {
        let page = top
        switch page.destination {
        case .list(let screen) where page.cursor >= screen.header.count:
            guard let row = row(page.cursor - screen.header.count, of: screen.source) else { return [] }
            pushContextMenu(for: row, in: screen.source)
        case .search(let state) where page.cursor > 0:
            let source = Self.searchSource(state)
            guard let row = row(page.cursor - 1, of: source) else { return [] }
            pushContextMenu(for: row, in: source)
        case .menu(.speakers):
            _ = openSpeakerVolume()
        case .nowPlaying:
            guard let t = loadCurrentTrack() else { return [] }
            let row = BrowseRow(id: t.id, kind: t.isSpokenWord ? .episode : .song, title: t.title, initial: "#")
            pushContextMenu(for: row, in: .library(.songs))
        default:
            break
        }
        return []
    }

    /// Opens the context menu of `row`, resolving where Browse Album and Browse Artist lead: a song's
    /// own album and artist, an album's artist (from its first track).
    private mutating func pushContextMenu(for row: BrowseRow, in source: ListSource) {
        var target = ContextTarget(row: row, source: source)
        var track: TrackInfo?
        switch row.kind {
        case .song, .episode:
            track = try? library.track(row.id)
            if let t = track, let id = t.albumID { target.album = .init(id: id, title: t.album) }
        case .album:
            track = (try? library.trackIDs(of: .songsOfAlbum(row.id)))?.first.flatMap { try? library.track($0) }
        default:
            break
        }
        if let t = track, let id = t.artistID, !t.isPodcast { target.artist = .init(id: id, title: t.artist) }
        push(.context(target))
    }

    /// Keeps the cursor of the page on screen inside its list and visible.
    mutating func clampCursor() {
        let count = lineCount(of: top.destination)
        stack[stack.count - 1].cursor = max(0, min(top.cursor, count - 1))
        fixTop()
    }

    /// Scrolls page `index` (default: the one on screen) so its cursor is visible.
    mutating func fixTop(_ index: Int? = nil) {
        let i = index ?? stack.count - 1
        var page = stack[i]
        let visible = configuration.geometry.listRows
        if page.cursor < page.top { page.top = page.cursor }
        if page.cursor >= page.top + visible { page.top = page.cursor - visible + 1 }
        page.top = max(0, page.top)
        stack[i] = page
    }

    /// Drops the caches and puts every cursor back on the item it was on (or the nearest line).
    mutating func libraryChanged() {
        rows.removeAll()
        queue.currentTrack = nil
        caches.chapterCache = nil
        caches.audiobooksPresent = nil
        caches.statistics = nil
        let saved = stack
        for i in saved.indices {
            var page = saved[i]
            if case .list(let screen) = page.destination, case .library(let list) = screen.source,
                let anchor = page.anchor, let index = try? library.index(of: anchor, in: list)
            {
                page.cursor = index + screen.header.count
            }
            let count = lineCount(of: page.destination)
            page.cursor = max(0, min(page.cursor, count - 1))
            stack[i] = page
        }
        for i in stack.indices { fixTop(i) }
    }
}
