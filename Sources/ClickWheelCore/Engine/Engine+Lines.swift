/// The lines of the page on screen: fixed menu items, header rows and library rows read by index.
extension Engine {
    /// The fixed items of a menu or context page (nil for lists and Now Playing).
    mutating func fixedItems(of destination: Destination) -> [MenuItem]? {
        switch destination {
        case .menu(.alarmSound(let id)):
            return MenuCatalog.items(of: .alarmSound(id), settings: settings, hasCurrent: false) + alarmSoundItems(id)
        case .menu(.chapters):
            return chapterItems()
        case .menu(.speakers):
            return speakerItems()
        case .menu(let id):
            // Music shows Compilations and Audiobooks only when the library has one (cached counts).
            let compilations = id == .music && rows.count(of: .compilations, in: library) > 0
            let books = id == .music && libraryHasAudiobooks()
            return MenuCatalog.items(
                of: id, settings: settings, hasCurrent: player.hasCurrent, hasCompilations: compilations,
                hasAudiobooks: books, hasSpeakers: speakers != nil, hasPodcastRefresh: configuration.podcastRefresh)
        case .context(let target):
            return MenuCatalog.contextItems(for: target) + chaptersRow(for: target)
        case .rating(let target):
            return MenuCatalog.ratingItems(for: target)
        case .list, .nowPlaying, .search, .clock, .alarmTime, .speakerVolume:
            return nil
        }
    }

    /// How many lines `destination` has.
    mutating func lineCount(of destination: Destination) -> Int {
        switch destination {
        case .menu(.about): return aboutLines().count
        case .menu, .context, .rating: return fixedItems(of: destination)?.count ?? 0
        case .list(let screen): return screen.header.count + count(of: screen.source)
        case .nowPlaying, .clock, .alarmTime, .speakerVolume: return 0
        case .search(let state): return 1 + searchResultCount(state)
        }
    }

    mutating func count(of source: ListSource) -> Int {
        switch source {
        case .library(let list): rows.count(of: list, in: library)
        case .onTheGo: queue.onTheGo.count
        }
    }

    /// Row `index` of a list's source (not counting header rows).
    mutating func row(_ index: Int, of source: ListSource) -> BrowseRow? {
        switch source {
        case .library(let list):
            return rows.row(index, of: list, in: library)
        case .onTheGo:
            guard queue.onTheGo.indices.contains(index), let t = try? library.track(queue.onTheGo[index]) else { return nil }
            return BrowseRow(id: t.id, kind: .song, title: t.title, detail: t.artist, initial: t.title.first ?? "#")
        }
    }

    /// Settings → About as label/value pairs.
    mutating func aboutLines() -> [(String, String)] {
        if caches.statistics == nil { caches.statistics = try? library.statistics() }
        let stats = caches.statistics
        func n(_ v: Int?) -> String { v.map(String.init) ?? "?" }
        return [
            ("Songs", n(stats?.songs)), ("Albums", n(stats?.albums)), ("Artists", n(stats?.artists)),
            ("Podcasts", n(stats?.podcastEpisodes)), ("Version", configuration.version),
        ]
    }

    /// The line at `index` of `destination`.
    mutating func line(_ index: Int, of destination: Destination) -> ListLine? {
        switch destination {
        case .menu(.about):
            let lines = aboutLines()
            guard lines.indices.contains(index) else { return nil }
            return ListLine(lines[index].0, trailing: lines[index].1)
        case .menu, .context, .rating:
            guard let items = fixedItems(of: destination), items.indices.contains(index) else { return nil }
            return line(of: items[index])
        case .list(let screen):
            if index < screen.header.count { return line(of: screen.header[index]) }
            guard let row = row(index - screen.header.count, of: screen.source) else { return nil }
            return line(of: row, in: screen.source)
        case .search(let state):
            if index == 0 { return ListLine(state.editorLine) }
            let source = Self.searchSource(state)
            guard index <= searchResultCount(state), let row = row(index - 1, of: source) else { return nil }
            return line(of: row, in: source)
        case .nowPlaying, .clock, .alarmTime, .speakerVolume:
            return nil
        }
    }

    private func line(of item: MenuItem) -> ListLine {
        if case .setting(let key) = item.action {
            return ListLine(item.title, trailing: key.choices[key.choiceIndex(in: settings)])
        }
        if item.action == .open(.menu(.sleepTimer)) { return ListLine(item.title, trailing: sleepLabel()) }
        if case .downloading(let progress) = item.action { return ListLine(item.title, trailing: progress) }
        if let value = alarmTrailing(item.action) {
            return ListLine(item.title, trailing: value, submenu: item.opensSubmenu && value.count < 4)
        }
        if item.action == .open(.menu(.audiobooks)) {
            return ListLine(item.title, trailing: SpokenWordSpeed.label(of: settings.spokenWordSpeed))
        }
        if case .spokenWordSpeed(let percent) = item.action {
            // The named speeds (Slower, Normal, Faster) show their factor too.
            let named = item.title != SpokenWordSpeed.factor(percent)
            return ListLine(item.title, trailing: named ? SpokenWordSpeed.factor(percent) : nil)
        }
        if let value = speakerTrailing(item.action) { return ListLine(item.title, trailing: value) }
        if case .rate(_, let rating) = item.action, rating > 0 { return ListLine(item.title, stars: rating) }
        return ListLine(item.title, submenu: item.opensSubmenu)
    }

    private func line(of row: BrowseRow, in source: ListSource) -> ListLine {
        switch row.kind {
        case .song:
            // My Top Rated shows the stars where the display has room for them beside the title.
            if source == .library(.smart(.topRated)), configuration.geometry.columns >= 20 {
                return ListLine(row.title, stars: row.rating)
            }
            return ListLine(row.title)
        case .episode:
            let mark: Glyph? = row.partlyPlayed ? .partlyPlayed : (row.unplayed > 0 ? .unplayed : nil)
            return ListLine(row.title, mark: mark)
        case .podcastShow:
            // The iPod's dot on a show with unplayed episodes, their count at the right.
            let unplayed = row.unplayed > 0
            return ListLine(
                row.title, trailing: unplayed ? "\(row.unplayed)" : nil, submenu: true, mark: unplayed ? .unplayed : nil)
        case .album where row.progress != nil:
            // A book: the unplayed dot until begun, half a circle and the percentage while under way.
            let p = row.progress ?? 0
            let finished = p >= 100
            let mark: Glyph? = finished ? nil : (row.partlyPlayed || p > 0 ? .partlyPlayed : .unplayed)
            return ListLine(row.title, trailing: finished || p == 0 ? nil : "\(p)%", submenu: true, mark: mark)
        case .artist, .album, .genre, .composer, .playlist:
            return ListLine(row.title, submenu: true)
        }
    }

    /// The library row id under the cursor of `page` (nil on header rows and fixed menus).
    mutating func anchor(of page: Page) -> Int64? {
        guard case .list(let screen) = page.destination, page.cursor >= screen.header.count else { return nil }
        return row(page.cursor - screen.header.count, of: screen.source)?.id
    }
}
