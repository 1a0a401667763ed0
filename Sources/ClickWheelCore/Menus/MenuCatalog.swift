/// The fixed menus as declarations (after Rockbox's MENUITEM_SETTING tables), and where library rows lead.
public enum MenuCatalog {
    /// The title of a fixed menu.
    public static func title(of menu: MenuID) -> String {
        switch menu {
        case .main: "ClickWheel"
        case .music: "Music"
        case .settings: "Settings"
        case .mainMenuItems: "Main Menu"
        case .about: "About"
        case .resetSettings: "Reset Settings"
        case .sleepTimer: "Sleep Timer"
        case .shutDown: PowerAction.shutDown.title
        case .restart: PowerAction.restart.title
        case .musicMenuItems: "Music Menu"
        case .extras: "Extras"
        case .alarms: "Alarms"
        case .dateTime: "Date & Time"
        case .alarm: "Alarm"
        case .alarmRepeat: "Repeat"
        case .alarmDays: "Days"
        case .alarmSound: "Sound"
        case .audiobooks: "Audiobooks"
        case .chapters: "Chapters"
        case .speakers: "Speakers"
        }
    }

    /// The rows of a fixed menu. `hasCurrent` adds Now Playing to the main menu; `hasCompilations`
    /// and `hasAudiobooks` (the library has a compilation, a book) let Music show Compilations and
    /// Audiobooks, as on the iPod; `hasPodcastRefresh` puts Refresh above Podcasts' shows.
    public static func items(
        of menu: MenuID, settings: Settings, hasCurrent: Bool, hasCompilations: Bool = false,
        hasAudiobooks: Bool = false, hasSpeakers: Bool = false, hasPodcastRefresh: Bool = false
    ) -> [MenuItem] {
        switch menu {
        case .main:
            var items: [MenuItem] = []
            if settings.showMusic { items.append(MenuItem("Music", .open(.menu(.music)))) }
            if settings.showPodcasts {
                // With subscriptions fetched by the service, a Refresh row above the shows fetches them now.
                let refresh = hasPodcastRefresh ? [MenuItem("Refresh", .refreshPodcasts)] : []
                items.append(MenuItem("Podcasts", .open(list("Podcasts", .podcastShows, header: refresh))))
            }
            if settings.showShuffleSongs { items.append(MenuItem("Shuffle Songs", .shuffleSongs)) }
            items.append(MenuItem("Settings", .open(.menu(.settings))))
            // After Settings, so the rows above keep their places (scripts over the control socket count
            // them), and Now Playing stays last (scripts reach it by turning to the end).
            items.append(MenuItem("Extras", .open(.menu(.extras))))
            // Only with a Snapcast server configured; after Extras for the same reason.
            if hasSpeakers { items.append(MenuItem("Speakers", .open(.menu(.speakers)))) }
            if hasCurrent { items.append(MenuItem("Now Playing", .open(.nowPlaying))) }
            return items
        case .music:
            return MusicMenuItem.allCases.filter { item in
                !settings.hiddenMusicItems.contains(item) && (item != .compilations || hasCompilations)
                    && (item != .audiobooks || hasAudiobooks)
            }.map { MenuItem($0.title, .open(destination(of: $0, settings: settings))) }
        case .settings:
            let cycling: [SettingKey] = [
                .shuffle, .repeatMode, .clicker, .backlight, .soundCheck, .volumeLimit, .acceleration,
                .resumePlaying,
            ]
            return [MenuItem("About", .open(.menu(.about)))] + cycling.map { MenuItem($0.title, .setting($0)) } + [
                MenuItem("Main Menu", .open(.menu(.mainMenuItems))),
                MenuItem("Rescan Library", .rescanLibrary),
                MenuItem("Reset Settings", .open(.menu(.resetSettings))),
                MenuItem("Sleep Timer", .open(.menu(.sleepTimer))),
                MenuItem(PowerAction.shutDown.title, .open(.menu(.shutDown))),
                MenuItem(PowerAction.restart.title, .open(.menu(.restart))),
                // Last, so the rows above keep their places (scripts over the control socket count them).
                MenuItem("Wheel", .calibrateWheel),
                MenuItem("Music Menu", .open(.menu(.musicMenuItems))),
                MenuItem("Audiobooks", .open(.menu(.audiobooks))),
                MenuItem("Date & Time", .open(.menu(.dateTime))),
            ]
        case .mainMenuItems:
            return [SettingKey.mainMusic, .mainPodcasts, .mainShuffleSongs].map { MenuItem($0.title, .setting($0)) }
        case .musicMenuItems:
            return MusicMenuItem.allCases.map { MenuItem($0.title, .setting(.musicMenu($0))) }
                + [MenuItem(SettingKey.compilationsInArtists.title, .setting(.compilationsInArtists))]
        case .about:
            return []
        case .resetSettings:
            return [MenuItem("Cancel", .back), MenuItem("Reset", .resetSettings)]
        case .sleepTimer:
            return SleepChoice.all.map { MenuItem($0.title, .sleep($0)) }
        case .shutDown:
            return [MenuItem("Cancel", .back), MenuItem(PowerAction.shutDown.title, .power(.shutDown))]
        case .restart:
            return [MenuItem("Cancel", .back), MenuItem(PowerAction.restart.title, .power(.restart))]
        case .extras, .alarms, .dateTime, .alarm, .alarmRepeat, .alarmDays, .alarmSound:
            return alarmItems(of: menu, settings: settings)
        case .audiobooks:
            return SpokenWordSpeed.percents.map { MenuItem(SpokenWordSpeed.title(of: $0), .spokenWordSpeed($0)) }
        case .chapters:
            return []  // the engine lists the current file's chapters (`Engine.fixedItems`)
        case .speakers:
            return []  // the engine lists the rooms it was sent (`Engine+Speakers`)
        }
    }

    /// Playlists: On-The-Go first, then the smart playlists (as on the iPod), then the library's playlists.
    static let playlists = Destination.list(
        ListScreen(
            title: "Playlists", source: .library(.playlists),
            header: [MenuItem("On-The-Go", .open(.list(ListScreen(title: "On-The-Go", source: .onTheGo))))]
                + SmartPlaylist.allCases.map { MenuItem($0.title, .open(list($0.title, .smart($0)))) }))

    /// The screen a row of the Music menu opens; Artists leaves out the compilations' artists unless
    /// Settings → Music Menu → Comps in Artists is on.
    public static func destination(of item: MusicMenuItem, settings: Settings) -> Destination {
        switch item {
        case .playlists: playlists
        case .artists: list("Artists", settings.compilationsInArtists ? .artists : .artistsWithoutCompilations)
        case .albums: list("Albums", .albums)
        case .compilations: list("Compilations", .compilations)
        case .songs: list("Songs", .songs)
        case .genres: list("Genres", .genres)
        case .composers: list("Composers", .composers)
        case .audiobooks: list("Audiobooks", .audiobooks)
        case .search: .search(SearchState())
        }
    }

    static func list(_ title: String, _ list: BrowseList, header: [MenuItem] = []) -> Destination {
        .list(ListScreen(title: title, source: .library(list), header: header))
    }

    /// Where selecting a non-song row of `source` leads (nil for songs and episodes, which play).
    public static func destination(of row: BrowseRow, in source: ListSource) -> Destination? {
        switch row.kind {
        case .song, .episode:
            return nil
        case .artist:
            if case .library(.artistsOfGenre(let genre)) = source {
                return list(row.title, .albumsOfGenreArtist(genre: genre, artist: row.id))
            }
            let all = MenuItem("All Albums", .open(list(row.title, .songsOfArtist(row.id))))
            return list(row.title, .albumsOfArtist(row.id), header: [all])
        case .album:
            if source == .library(.audiobooks) { return list(row.title, .partsOfBook(row.id)) }
            return list(row.title, .songsOfAlbum(row.id))
        case .genre:
            let all = MenuItem("All Songs", .open(list(row.title, .songsOfGenre(row.id))))
            return list(row.title, .artistsOfGenre(row.id), header: [all])
        case .composer:
            return list(row.title, .songsOfComposer(row.id))
        case .playlist:
            return list(row.title, .songsOfPlaylist(row.id))
        case .podcastShow:
            return list(row.title, .episodesOfShow(row.id))
        }
    }

    /// The text shown by an empty list.
    public static func emptyText(of source: ListSource) -> String {
        switch source {
        case .onTheGo: return "No Songs"
        case .library(let list):
            switch list {
            case .playlists: return "No Playlists"
            case .artists, .artistsOfGenre, .artistsWithoutCompilations: return "No Artists"
            case .albums, .albumsOfArtist, .albumsOfGenreArtist: return "No Albums"
            case .compilations: return "No Compilations"
            case .genres: return "No Genres"
            case .composers: return "No Composers"
            case .podcastShows: return "No Podcasts"
            case .episodesOfShow: return "No Episodes"
            case .audiobooks: return "No Audiobooks"
            case .partsOfBook: return "No Parts"
            case .search: return "No Results"
            case .smart(.topRated): return "No Rated Songs"
            case .smart(.mostPlayed), .smart(.recentlyPlayed): return "No Songs Played"
            case .songs, .smart, .songsOfArtist, .songsOfAlbum, .songsOfGenre, .songsOfComposer,
                .songsOfPlaylist:
                return "No Songs"
            }
        }
    }
}

extension MenuCatalog {
    /// The context menu of a row: Play Next, Add to On-The-Go, Browse Album, Browse Artist where they
    /// apply, and Rate Song for a song.
    public static func contextItems(for target: ContextTarget) -> [MenuItem] {
        var items = [MenuItem("Play Next", .playNext(target)), MenuItem("Add to On-The-Go", .addToOnTheGo(target))]
        if target.source == .onTheGo { items.append(MenuItem("Clear On-The-Go", .clearOnTheGo)) }
        if let album = target.album {
            items.append(MenuItem("Browse Album", .open(list(album.title, .songsOfAlbum(album.id)))))
        }
        if let artist = target.artist {
            let row = BrowseRow(id: artist.id, kind: .artist, title: artist.title, initial: "#")
            if let d = destination(of: row, in: .library(.artists)) {
                items.append(MenuItem("Browse Artist", .open(d)))
            }
        }
        // Last, so the rows above keep their places.
        if target.row.kind == .song { items.append(MenuItem("Rate Song", .open(.rating(target)))) }
        return items
    }
}

extension MenuCatalog {
    /// Rate Song's choices: No Rating, then 1 to 5 stars (selecting one rates the song and goes back).
    public static func ratingItems(for target: ContextTarget) -> [MenuItem] {
        (0...5).map { stars in
            let title = stars == 0 ? "No Rating" : stars == 1 ? "1 Star" : "\(stars) Stars"
            return MenuItem(title, .rate(target.row.id, rating: stars * 2))
        }
    }
}

extension MenuCatalog {
    /// Music → Audiobooks, shown only when the library has books.
}
