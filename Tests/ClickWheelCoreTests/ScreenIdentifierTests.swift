import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// The `screen` extension's `menu:` names: one per kind of screen, the same however it was reached,
/// written as doc/control-socket.md lists them.
@Suite struct ScreenIdentifierTests {
    /// Every kind of screen there is, with the name doc/control-socket.md gives it.
    static let named: [(Destination, String)] = {
        let row = BrowseRow(id: 1, kind: .song, title: "x", initial: "X")
        var all: [(Destination, String)] = [
            (.menu(.main), "main"), (.menu(.music), "music"), (.menu(.settings), "settings"),
            (.menu(.mainMenuItems), "settings.mainmenu"), (.menu(.about), "settings.about"),
            (.menu(.resetSettings), "settings.reset"), (.menu(.sleepTimer), "settings.sleeptimer"),
            (.menu(.shutDown), "settings.shutdown"), (.menu(.restart), "settings.restart"),
            (.nowPlaying, "nowplaying"), (.search(SearchState()), "search"),
            (.context(ContextTarget(row: row, source: .onTheGo)), "context"),
            (.rating(ContextTarget(row: row, source: .onTheGo)), "context.rating"),
            (.menu(.speakers), "speakers"), (.speakerVolume("room-a"), "speakers.volume"),
        ]
        let lists: [(ListSource, String)] = [
            (.onTheGo, "music.playlists.onthego"), (.library(.playlists), "music.playlists"),
            (.library(.songsOfPlaylist(1)), "music.playlists.songs"), (.library(.artists), "music.artists"),
            (.library(.albumsOfArtist(1)), "music.artists.albums"),
            (.library(.songsOfArtist(1)), "music.artists.songs"),
            (.library(.albums), "music.albums"), (.library(.songsOfAlbum(1)), "music.albums.songs"),
            (.library(.songs), "music.songs"), (.library(.genres), "music.genres"),
            (.library(.artistsOfGenre(1)), "music.genres.artists"),
            (.library(.albumsOfGenreArtist(genre: 1, artist: 2)), "music.genres.artists.albums"),
            (.library(.songsOfGenre(1)), "music.genres.songs"), (.library(.composers), "music.composers"),
            (.library(.songsOfComposer(1)), "music.composers.songs"),
            (.library(.smart(.mostPlayed)), "music.playlists.mostplayed"),
            (.library(.smart(.recentlyPlayed)), "music.playlists.recentlyplayed"),
            (.library(.smart(.topRated)), "music.playlists.toprated"),
            (.library(.smart(.recentlyAdded)), "music.playlists.recentlyadded"),
            (.library(.smart(.neverPlayed)), "music.playlists.neverplayed"),
            (.library(.search("a")), "search.results"), (.library(.podcastShows), "podcasts"),
            (.library(.episodesOfShow(1)), "podcasts.episodes"),
        ]
        all += lists.map { (.list(ListScreen(title: "Any Title", source: $0.0)), $0.1) }
        return all
    }()

    @Test func namesAreDistinctDottedLowerCaseWordsListedInTheManual() throws {
        let tests = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let manual = tests.deletingLastPathComponent().appending(path: "doc/control-socket.md")
        let readme = try String(contentsOf: manual, encoding: .utf8)
        var seen = Set<String>()
        let made = Self.named.map { MenuCatalog.identifier(of: $0.0) } + [MenuCatalog.wheelSetupIdentifier]
        #expect(made == Self.named.map(\.1) + ["settings.wheel"])
        for made in made {
            #expect(seen.insert(made).inserted, "\(made) twice")
            let words = made.split(separator: ".", omittingEmptySubsequences: false)
            #expect(words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= "a" && $0 <= "z" } }, "\(made)")
            #expect(readme.contains("`\(made)`"), "doc/control-socket.md does not list \(made)")
        }
        // The name is the kind of screen: another title or row id gives the same.
        let a = ListScreen(title: "ABBA", source: .library(.albumsOfArtist(1)))
        let b = ListScreen(title: "Blondie", source: .library(.albumsOfArtist(7)))
        #expect(MenuCatalog.identifier(of: .list(a)) == MenuCatalog.identifier(of: .list(b)))
    }

    /// A walk with the wheel and buttons, as a script over the socket would make it.
    @Test func aWalkThroughTheMenusNamesEachScreen() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: DisplayGeometry(columns: 20, rows: 4))
        func menu() -> String { h.engine.position().menu }
        #expect(menu() == "main")
        h.click(.select)
        #expect(menu() == "music" && h.engine.position().title == "Music")
        h.turn(1)
        h.click(.select)
        #expect(menu() == "music.artists")
        h.click(.select)
        #expect(menu() == "music.artists.albums")
        h.click(.select)  // the "All Albums" row
        #expect(menu() == "music.artists.songs")
        h.click(.menu)
        h.turn(1)
        h.click(.select)
        #expect(menu() == "music.albums.songs")
        h.hold(.select)
        #expect(menu() == "context")
        h.click(.menu)
        h.click(.select)  // plays the song
        #expect(menu() == "nowplaying")
        for _ in 0..<6 { h.click(.menu) }
        #expect(menu() == "main" && h.engine.position().depth == 1)
        h.turn(3)
        h.click(.select)
        #expect(menu() == "settings")
        h.click(.select)
        #expect(menu() == "settings.about")
        h.click(.menu)
        h.turn(15)  // the last row, Wheel: the calibration covers Settings
        h.click(.select)
        #expect(menu() == "settings.wheel" && h.engine.position().title == "Settings")
    }
}
