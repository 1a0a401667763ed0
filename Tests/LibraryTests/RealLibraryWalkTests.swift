import ClickWheelCore
import ClickWheelTestKit
import Foundation
import GRDB
@testable import Library
import Testing

/// The engine over the real SQLite library (the indexed fixture MP3s), walked as a person would,
/// frame by frame against golden files for 16x2 and 20x4.
@Suite struct RealLibraryWalkTests {
    static let golden = GoldenFrames(directory: TestPaths.root.appendingPathComponent("Tests/LibraryTests/Golden"))

    @Test(arguments: ["16x2", "20x4"])
    func browseArtistsAlbumsSongsPlaylistsAndPodcasts(size: String) throws {
        let store = LibraryStore(FixtureIndexTests.indexed.pool)
        var h = EngineHarness(library: store, geometry: try #require(DisplayGeometry(size)))
        var walk = WalkRecord()
        walk.snap("main menu", h.engine.frame)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        walk.snap("Music → Artists", h.engine.frame)
        h.turn(3)
        walk.snap("three steps down", h.engine.frame)
        h.click(.select)
        walk.snap("the artist", h.engine.frame)
        h.turn(1)
        h.click(.select)
        walk.snap("its album", h.engine.frame)
        h.click(.select)
        walk.snap("select the first song: Now Playing", h.engine.frame)
        #expect(h.lastEffects.contains { if case .playback(.play) = $0 { true } else { false } })
        func toMainMenu() {
            for _ in 0..<6 { h.click(.menu) }
            h.turn(-10)
        }
        toMainMenu()
        walk.snap("back on the main menu: Now Playing has appeared", h.engine.frame)
        h.click(.select)
        h.turn(4)  // Playlists, Artists, Albums, Compilations (the fixtures have two), Songs
        h.click(.select)
        walk.snap("Music → Songs", h.engine.frame)
        h.spin(40, intervalMS: 15)
        walk.snap("a fast spin to the end (numbers sort last)", h.engine.frame)
        toMainMenu()
        h.click(.select)
        h.click(.select)
        walk.snap("Music → Playlists", h.engine.frame)
        h.turn(2 + SmartPlaylist.allCases.count)
        h.click(.select)
        walk.snap("Mix.m3u (its missing entry is left out)", h.engine.frame)
        toMainMenu()
        h.turn(1)
        h.click(.select)
        walk.snap("Podcasts: shows with unplayed counts", h.engine.frame)
        h.turn(2)
        h.click(.select)
        walk.snap("Show Name: newest episode first", h.engine.frame)
        Self.golden.check(walk.text, name: "real-library-\(size).txt")
    }

    @Test func cursorStaysOnItsSongWhenTheLibraryChanges() throws {
        let dir = TempDir()
        let music = dir.file("music").path
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        for name in ["01 CBR Info.mp3", "02 VBR Xing.mp3", "06 48000 Hz.mp3"] {
            try FileManager.default.copyItem(
                atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/" + name).path, toPath: music + "/" + name)
        }
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        var h = EngineHarness(library: LibraryStore(pool), geometry: DisplayGeometry(columns: 20, rows: 4))
        h.click(.select)
        h.turn(3)
        h.click(.select)  // Songs
        h.turn(1)
        #expect(h.screen.contains(">VBR Xing           "))
        // A song that sorts first appears: the cursor stays on "VBR Xing", now one row lower.
        try FileManager.default.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/04 CBR no Info.mp3").path,
            toPath: music + "/04.mp3")
        try index(music, into: pool)
        h.send(.libraryChanged(at: h.now))
        #expect(h.screen.contains(">VBR Xing           "), "\(h.screen)")
        #expect(h.screen.first?.hasSuffix("3/4") == true, "\(h.screen)")
    }
}
