import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Music → Audiobooks and chapters on Now Playing: a walk compared frame by frame with golden files for
/// 16x2 and 20x4, and the chapter and resume rules checked on the effects.
@Suite struct AudiobookWalkTests {
    /// Part 2 of The Long Road (id 4): chapters at 0, 10 and 25 minutes, 40 minutes long.
    static let part2: TrackID = 4

    func harness(_ library: InMemoryLibrary = Fixtures.audiobooks(), size: String = "20x4") throws -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = 0
        var h = EngineHarness(library: library, geometry: try #require(DisplayGeometry(size)), settings: settings)
        h.send(.wallClock(unixMS: 1_700_000_000_000, at: h.now))
        return h
    }

    /// Music → Audiobooks → The Long Road → Part 2, started and reported at `ms`.
    func playPart2(_ h: inout EngineHarness, at ms: Int) {
        h.click(.select)  // Music
        h.turn(6)
        h.click(.select)  // Audiobooks
        h.click(.select)  // The Long Road
        h.turn(1)
        h.click(.select)  // Part 2
        h.report(.started(index: 1))
        h.report(.position(ms: ms))
    }

    @Test(arguments: ["16x2", "20x4"])
    func audiobooksChaptersAndTheChaptersMenu(size: String) throws {
        var h = try harness(size: size)
        var walk = WalkRecord()
        h.click(.select)
        h.turn(6)
        walk.snap("Music: Audiobooks after Composers", h.engine.frame)
        h.click(.select)
        walk.snap("Audiobooks: the books (by title, articles ignored), one half heard", h.engine.frame)
        h.turn(1)
        walk.snap("the new one", h.engine.frame)
        h.turn(-1)
        h.click(.select)
        walk.snap("its parts: finished, started, new", h.engine.frame)
        h.turn(1)
        h.click(.select)
        h.report(.started(index: 1))
        h.report(.position(ms: 700_000))
        walk.snap("Part 2 at 11:40: the second chapter's title", h.engine.frame)
        h.click(.next)
        h.report(.position(ms: 1_500_000))
        walk.snap("Next: the third chapter", h.engine.frame)
        h.hold(.select)
        h.turn(10)
        walk.snap("context menu: Chapters last", h.engine.frame)
        h.click(.select)
        walk.snap("Chapters: on the one playing", h.engine.frame)
        h.turn(-2)
        h.click(.select)
        walk.snap("the first chapter: back on Now Playing", h.engine.frame)
        Golden.check(walk.text, name: "walk-audiobooks-\(size).txt")
    }

    @Test func nextAndPreviousMoveBetweenChaptersThenTracks() throws {
        var h = try harness()
        playPart2(&h, at: 700_000)
        h.click(.next)
        #expect(h.playbackCommands.last == .seek(ms: 1_500_000))
        h.report(.position(ms: 1_501_000))
        h.click(.previous)
        #expect(h.playbackCommands.last == .seek(ms: 600_000), "1 s into a chapter: the previous one")
        h.report(.position(ms: 605_000))
        h.click(.previous)
        #expect(h.playbackCommands.last == .seek(ms: 600_000), "5 s into it: its own start")
        h.report(.position(ms: 2_000_000))
        h.click(.next)
        #expect(h.playbackCommands.last == .play(index: 2), "past the last chapter: the next part")
        #expect(h.engine.player.current == 2)
    }

    @Test func previousAtTheFirstChapterGoesToThePreviousTrack() throws {
        var h = try harness()
        playPart2(&h, at: 1000)
        h.click(.previous)
        #expect(h.playbackCommands.last == .play(index: 0))
    }

    @Test func aFileWithoutChaptersSkipsTracksAndHasNoChaptersRow() throws {
        var h = try harness()
        h.click(.select)
        h.turn(6)
        h.click(.select)
        h.click(.select)
        h.click(.select)  // Part 1: no chapters
        h.report(.started(index: 0))
        h.report(.position(ms: 700_000))
        h.hold(.select)
        #expect(!h.screenText.contains("Chapters"))
        h.click(.menu)
        h.click(.next)
        #expect(h.playbackCommands.last == .play(index: 1))
    }

    @Test func theMusicMenuListsAudiobooksOnlyWhenThereAreBooks() throws {
        var h = try harness(Fixtures.sample())
        h.click(.select)
        let rows = (0..<8).map { i -> String in
            h.turn(i == 0 ? 0 : 1)
            return h.screen[1]
        }
        #expect(!rows.contains { $0.contains("Audiobooks") })
        var books = try harness()
        books.click(.select)
        books.turn(6)
        #expect(books.screen.contains { $0.contains("Audiobooks") })
    }

    @Test func songsAndShuffleSongsLeaveBooksOut() throws {
        let library = Fixtures.audiobooks()
        #expect(try library.trackIDs(of: .songs) == [1, 2])
        var h = try harness(library)
        h.turn(1)
        h.click(.select)  // Shuffle Songs (Podcasts is the second row)
        #expect(Set(h.engine.player.queue).isSubset(of: [1, 2]))
    }

    @Test func aBookPartResumesLikeAnEpisode() throws {
        let library = Fixtures.audiobooks()
        let anHourAgo: Int64 = 1_700_000_000_000 + 1000 - 3_600_000
        library.setBookmark(Self.part2, Bookmark(positionMS: 1_200_000, savedAtMS: anHourAgo))
        var h = try harness(library)
        h.click(.select)
        h.turn(6)
        h.click(.select)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        #expect(Array(h.playbackCommands.suffix(2)) == [.play(index: 1), .seek(ms: 1_185_000)])
        h.report(.started(index: 1))
        h.report(.position(ms: 1_300_000))
        h.click(.next)  // the next chapter: still this part
        h.report(.position(ms: 2_290_000))
        #expect(h.lastEffects.contains(.episodeFinished(Self.part2)), "past 95 %: finished")
        h.click(.next)
        #expect(h.playbackCommands.last == .play(index: 2))
    }

    @Test func aPodcastEpisodeWithChaptersMovesBetweenThemToo() throws {
        let chapters = [
            Chapter(startMS: 0, endMS: 60_000, title: "Intro"), Chapter(startMS: 60_000, endMS: 600_000, title: "News"),
        ]
        let library = InMemoryLibrary(tracks: [
            FixtureTrack(title: "Song", artist: "Band", album: "Record"),
            FixtureTrack(
                title: "Episode", artist: "Radio", album: "The Show", genre: "Podcast", durationMS: 600_000,
                isPodcast: true, unplayed: true, chapters: chapters),
        ])
        var h = try harness(library)
        h.turn(1)
        h.click(.select)  // Podcasts
        h.click(.select)  // The Show
        h.click(.select)  // Episode
        h.report(.started(index: 0))
        h.report(.position(ms: 10_000))
        #expect(h.screen[2].hasPrefix("Intro "))
        h.click(.next)
        #expect(h.playbackCommands.last == .seek(ms: 60_000))
        h.report(.position(ms: 61_000))
        #expect(h.screen[2].hasPrefix("News "))
        h.hold(.select)
        h.turn(10)
        #expect(h.screen.last == ">Chapters          ›")
    }
}
