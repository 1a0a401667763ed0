/// The stable name of a kind of screen (`screen`'s `menu:` field), for scripts that drive the UI over
/// the control socket: unlike the title, it does not change with the row that led there (an artist's
/// name), the language or a renamed menu.
///
/// The scheme: lower-case words joined by dots, the place of the screen in the menu tree as the
/// Music menu first reaches it (`music.artists.albums`: an artist's albums, however it was reached,
/// from Artists, a context menu's Browse Artist or Search). A screen outside the tree has a name of
/// its own (`nowplaying`, `context`, `search`). Names are only ever added; one in use never changes
/// meaning. doc/control-socket.md's Screen names lists them.
extension MenuCatalog {
    /// The name of the screen `destination` shows.
    public static func identifier(of destination: Destination) -> String {
        switch destination {
        case .menu(let menu): identifier(of: menu)
        case .list(let screen): identifier(of: screen.source)
        case .nowPlaying: "nowplaying"
        case .context: "context"
        case .rating: "context.rating"
        case .search: "search"
        case .clock: "extras.clock"
        case .alarmTime: "extras.alarms.alarm.time"
        case .speakerVolume: "speakers.volume"
        }
    }

    /// The name of the Wheel calibration (Settings → Wheel), which covers whatever screen was open.
    public static let wheelSetupIdentifier = "settings.wheel"

    static func identifier(of menu: MenuID) -> String {
        switch menu {
        case .main: "main"
        case .music: "music"
        case .settings: "settings"
        case .mainMenuItems: "settings.mainmenu"
        case .about: "settings.about"
        case .resetSettings: "settings.reset"
        case .sleepTimer: "settings.sleeptimer"
        case .shutDown: "settings.shutdown"
        case .restart: "settings.restart"
        case .musicMenuItems: "settings.musicmenu"
        case .extras: "extras"
        case .alarms: "extras.alarms"
        case .alarm: "extras.alarms.alarm"
        case .alarmRepeat: "extras.alarms.alarm.repeat"
        case .alarmDays: "extras.alarms.alarm.days"
        case .alarmSound: "extras.alarms.alarm.sound"
        case .dateTime: "settings.datetime"
        case .audiobooks: "settings.audiobooks"
        case .chapters: "nowplaying.chapters"
        case .speakers: "speakers"
        }
    }

    static func identifier(of source: ListSource) -> String {
        switch source {
        case .onTheGo: return "music.playlists.onthego"
        case .library(let list):
            switch list {
            case .playlists: return "music.playlists"
            case .songsOfPlaylist: return "music.playlists.songs"
            case .artists, .artistsWithoutCompilations: return "music.artists"
            case .compilations: return "music.compilations"
            case .albumsOfArtist: return "music.artists.albums"
            case .songsOfArtist: return "music.artists.songs"
            case .albums: return "music.albums"
            case .songsOfAlbum: return "music.albums.songs"
            case .songs: return "music.songs"
            case .genres: return "music.genres"
            case .artistsOfGenre: return "music.genres.artists"
            case .albumsOfGenreArtist: return "music.genres.artists.albums"
            case .songsOfGenre: return "music.genres.songs"
            case .composers: return "music.composers"
            case .songsOfComposer: return "music.composers.songs"
            case .smart(.mostPlayed): return "music.playlists.mostplayed"
            case .smart(.recentlyPlayed): return "music.playlists.recentlyplayed"
            case .smart(.topRated): return "music.playlists.toprated"
            case .smart(.recentlyAdded): return "music.playlists.recentlyadded"
            case .smart(.neverPlayed): return "music.playlists.neverplayed"
            case .search: return "search.results"
            case .podcastShows: return "podcasts"
            case .episodesOfShow: return "podcasts.episodes"
            case .audiobooks: return "music.audiobooks"
            case .partsOfBook: return "music.audiobooks.parts"
            }
        }
    }
}
