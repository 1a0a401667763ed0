import ClickWheelCore
import ClickWheelTestKit
import Foundation
import Testing

/// Music → Compilations, Settings → Music Menu (rows shown or hidden, Comps in Artists) and opening a
/// hidden screen by name, over the in-memory twin of the library.
@Suite struct CompilationMenuTests {
    /// Settings rows below Music Menu (Audiobooks, Date & Time): the walks turn to the end, then back this many.
    static let settingsRowsAfterMusicMenu = 2

    /// The sample library and two compilations filed under Various Artists.
    static func library() -> InMemoryLibrary {
        let hits = ["Sun", "Sea", "Sky"].enumerated().map {
            FixtureTrack(
                title: "\($0.element) Hit", artist: "Various Artists", album: "Summer Hits", genre: "Pop",
                trackNumber: $0.offset + 1, isCompilation: true)
        }
        let mix = FixtureTrack(
            title: "Night Drive", artist: "Various Artists", album: "Road Mix", genre: "Electronic",
            isCompilation: true)
        return InMemoryLibrary(tracks: Fixtures.sampleTracks() + hits + [mix])
    }

    static func harness(_ size: String, settings: Settings = Settings()) throws -> EngineHarness {
        EngineHarness(library: library(), geometry: try #require(DisplayGeometry(size)), settings: settings)
    }

    /// Every screen line seen while the cursor walks down the open menu and back: what a person reads.
    static func menuText(_ h: inout EngineHarness) -> String {
        var seen = h.screenText
        let count = h.engine.position().count
        for _ in 0..<count {
            h.turn(1)
            seen += "\n" + h.screenText
        }
        h.turn(-count)
        return seen
    }

    @Test(arguments: EngineWalkTests.geometries)
    func compilationsAndTheMusicMenuSetting(size: String) throws {
        var h = try Self.harness(size)
        var walk = WalkRecord()
        h.click(.select)
        h.turn(3)
        walk.snap("Music, cursor on Compilations", h.engine.frame)
        h.click(.select)
        walk.snap("Compilations", h.engine.frame)
        h.turn(1)
        h.click(.select)
        walk.snap("Summer Hits", h.engine.frame)
        h.click(.menu)
        h.click(.menu)
        h.turn(-2)
        h.click(.select)
        h.turn(44)
        walk.snap("Artists, the end: no Various Artists", h.engine.frame)
        h.click(.menu)
        h.click(.menu)
        h.turn(3)
        h.click(.select)
        h.turn(20)
        h.turn(-Self.settingsRowsAfterMusicMenu)
        walk.snap("Settings: Music Menu", h.engine.frame)
        h.click(.select)
        walk.snap("Music Menu", h.engine.frame)
        h.turn(3)
        h.click(.select)
        walk.snap("Compilations turned off", h.engine.frame)
        h.turn(20)  // the last row
        h.click(.select)
        walk.snap("Comps in Artists turned on", h.engine.frame)
        h.click(.menu)
        h.click(.menu)
        h.turn(-3)
        h.click(.select)
        h.turn(3)
        walk.snap("Music without Compilations", h.engine.frame)
        h.turn(-2)
        h.click(.select)
        h.turn(45)
        walk.snap("Artists, the end: Various Artists", h.engine.frame)
        Golden.check(walk.text, name: "walk-compilations-\(size).txt")
    }

    @Test func musicShowsCompilationsOnlyWhenTheLibraryHasOne() throws {
        var plain = EngineHarness(library: Fixtures.sample(), geometry: DisplayGeometry(columns: 20, rows: 4))
        plain.click(.select)
        #expect(plain.engine.position().count == 7 && !Self.menuText(&plain).contains("Compilations"))
        var h = try Self.harness("20x4")
        h.click(.select)
        #expect(h.engine.position().count == 8 && Self.menuText(&h).contains("Compilations"))
    }

    @Test func aHiddenRowIsPersistedAndTheArtistsFollowTheSwitch() throws {
        var h = try Self.harness("20x4")
        #expect(h.engine.position().menu == "main")
        // Settings → Music Menu → Compilations: Off, then Artists: Off.
        h.turn(3)
        h.click(.select)
        h.turn(20)
        h.turn(-Self.settingsRowsAfterMusicMenu)
        h.click(.select)
        #expect(h.engine.position().menu == "settings.musicmenu")
        h.turn(3)
        h.click(.select)
        let persisted = h.lastEffects.compactMap { effect -> Settings? in
            if case .persist(let s) = effect { return s }
            return nil
        }
        #expect(persisted.last?.hiddenMusicItems == [.compilations])
        h.turn(-2)
        h.click(.select)
        #expect(h.engine.settings.hiddenMusicItems == [.compilations, .artists])
        h.click(.menu)
        h.click(.menu)
        h.turn(-3)
        h.click(.select)
        let music = Self.menuText(&h)
        #expect(h.engine.position().count == 6 && !music.contains("Compilations") && !music.contains("Artists"))
        #expect(music.contains("Albums") && music.contains("Search"))
        // The hidden screens still open by name, with the Artists list the switch chooses.
        var out = h.engine.control(.openScreen("music.artists"), at: .ms(99_000))
        #expect(try out.result.get() == [])
        let grouped = ListScreen(title: "Artists", source: .library(.artistsWithoutCompilations))
        #expect(h.engine.top.destination == .list(grouped))
        var on = h.engine.settings
        on.compilationsInArtists = true
        h.send(.settings(on, at: .ms(99_100)))
        out = h.engine.control(.openScreen("music.artists"), at: .ms(99_200))
        #expect(h.engine.top.destination == .list(ListScreen(title: "Artists", source: .library(.artists))))
        out = h.engine.control(.openScreen("music.compilations"), at: .ms(99_300))
        let p = h.engine.position()
        #expect(p.menu == "music.compilations" && p.title == "Compilations" && p.depth == 3 && p.count == 2)
        // Menu goes back along the path, to Music.
        h.click(.menu)
        #expect(h.engine.position().menu == "music")
    }

    @Test func anUnknownScreenIsRefusedAndNothingMoves() throws {
        var h = try Self.harness("16x2")
        h.click(.select)
        let out = h.engine.control(.openScreen("music.nowhere"), at: .ms(99_000))
        guard case .failure(.noSuchScreen(let name, let known)) = out.result else {
            Issue.record("expected noSuchScreen, got \(out.result)")
            return
        }
        #expect(name == "music.nowhere")
        #expect(["music.compilations", "settings.musicmenu", "podcasts"].allSatisfy(known.contains))
        #expect(!known.contains("music.artists.albums"))  // one artist's screen needs the artist
        #expect(h.engine.position().menu == "music")
    }

    @Test func settingsKeepTheMusicMenuAndDropRowsTheyDoNotKnow() throws {
        var s = Settings()
        s.hiddenMusicItems = [.genres, .search]
        s.compilationsInArtists = true
        let data = try JSONEncoder().encode(s)
        #expect(try JSONDecoder().decode(Settings.self, from: data) == s)
        // Stored by a newer build with a row this one lacks: the rest is kept.
        let newer = Data(#"{"hiddenMusicItems":["genres","videos"],"compilationsInArtists":true,"volume":30}"#.utf8)
        let decoded = try JSONDecoder().decode(Settings.self, from: newer)
        #expect(decoded.hiddenMusicItems == [.genres] && decoded.compilationsInArtists && decoded.volume == 30)
        // Stored by an older build: everything shown, compilations kept apart.
        let older = try JSONDecoder().decode(Settings.self, from: Data(#"{"volume":30}"#.utf8))
        #expect(older.hiddenMusicItems.isEmpty && !older.compilationsInArtists)
    }
}
