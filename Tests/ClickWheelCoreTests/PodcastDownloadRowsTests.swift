import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Podcasts on the device (issue 34): the iPod's "New" dot on unplayed episodes and on shows that have
/// some, and the episodes the service is downloading (`Event.podcastDownloads`) shown under their show
/// with their progress, not playable; the cursor stays on its row while download rows come and go.
@Suite struct PodcastDownloadRowsTests {
    func harness() -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = 0
        settings.clicker = .off
        var configuration = EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4), version: "test")
        configuration.podcastRefresh = true
        return EngineHarness(engine: Engine(library: Fixtures.sample(), configuration: configuration, settings: settings))
    }

    /// The sample library's one show, The Talk Show: its row id as the open list says it.
    func showID(_ h: EngineHarness) -> Int64 {
        guard case .list(let screen) = h.engine.stack.last?.destination, case .library(.episodesOfShow(let id)) = screen.source
        else { return -1 }
        return id
    }

    /// Main menu → Podcasts → The Talk Show (below Refresh).
    func openShow(_ h: inout EngineHarness) {
        h.turn(1)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts.episodes", "\(h.screen)")
    }

    func download(_ episode: String, show: String = "The Talk Show", showID: Int64? = 0, bytes: Int64, total: Int64?) -> PodcastDownload {
        PodcastDownload(show: show, showID: showID, episode: episode, bytes: bytes, total: total)
    }

    var cursor: (EngineHarness) -> Int { { $0.engine.stack.last?.cursor ?? -1 } }

    @Test func unplayedEpisodesAndTheirShowCarryTheDot() {
        var h = harness()
        h.turn(1)
        h.click(.select)
        // Refresh, then the show: the dot, and its one unplayed episode counted at the right.
        let show = h.screen[2]
        #expect(show.contains("The Talk Show") && show.hasPrefix("\(Glyph.unplayed.unicode)") && show.contains("1"), "\(h.screen)")
        h.turn(1)
        h.click(.select)
        h.turn(2)
        // Newest first: Episode 3 (never played: the dot), 2 (begun: the half circle), 1 (played: none;
        // the cursor's row).
        #expect(h.screen[1].contains("Episode 3") && h.screen[1].contains(Glyph.unplayed.unicode), "\(h.screen)")
        #expect(h.screen[2].contains("Episode 2") && h.screen[2].contains(Glyph.partlyPlayed.unicode), "\(h.screen)")
        #expect(h.screen[3] == ">Episode 1: Hello   ", "\(h.screen)")
    }

    @Test func aDownloadShowsUnderItsShowWithItsProgressAndDoesNotPlay() {
        var h = harness()
        openShow(&h)
        #expect(cursor(h) == 0 && h.screen[1].contains("Episode 3"))
        let show = showID(h)
        _ = h.send(.podcastDownloads([download("Episode 4", showID: show, bytes: 42, total: 100)], at: h.now))
        #expect(h.screen[1].contains("Episode 4") && h.screen[1].hasSuffix("42%"), "\(h.screen)")
        #expect(h.screen[2].contains("Episode 3"), "the episodes below it: \(h.screen)")
        #expect(cursor(h) == 1, "the cursor stays on Episode 3")

        // As bytes arrive the row follows; selecting it plays nothing.
        _ = h.send(.podcastDownloads([download("Episode 4", showID: show, bytes: 84, total: 100)], at: h.now))
        #expect(h.screen[1].hasSuffix("84%"), "\(h.screen)")
        h.turn(-1)
        #expect(cursor(h) == 0)
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts.episodes")
        #expect(h.playbackCommands.isEmpty, "\(h.effects)")

        // Done: the row goes (the episode comes back as a library row after the scan).
        _ = h.send(.podcastDownloads([], at: h.now))
        #expect(h.screen[1].contains("Episode 3"), "\(h.screen)")
        #expect(cursor(h) == 0)
    }

    @Test func aSizeNotKnownShowsMegabytesAndNeverAHundredPercent() {
        #expect(download("E", bytes: 12_500_000, total: nil).progressLabel == "12M")
        #expect(download("E", bytes: 100, total: 100).progressLabel == "99%", "complete only once renamed")
        #expect(download("E", bytes: 0, total: 100).progressLabel == "0%")
    }

    @Test func otherShowsDownloadsStayUnderTheirOwn() {
        var h = harness()
        openShow(&h)
        // A show of the same name under another id (the id wins), and one with no episodes yet: not here.
        _ = h.send(.podcastDownloads([
            download("Elsewhere", show: "The Talk Show", showID: showID(h) + 1000, bytes: 1, total: 10),
            download("First Of All", show: "New Show", showID: nil, bytes: 5, total: 10),
        ], at: h.now))
        #expect(!h.screenText.contains("Elsewhere") && !h.screenText.contains("First Of All"), "\(h.screen)")
        #expect(cursor(h) == 0)
        // A show matched by its name while the library has no id for it yet.
        _ = h.send(.podcastDownloads([download("By Name", show: "the talk show", showID: nil, bytes: 3, total: 10)], at: h.now))
        #expect(h.screen[1].contains("By Name") && h.screen[1].hasSuffix("30%"), "\(h.screen)")
    }

    @Test func aShowWhoseFirstEpisodesArriveIsListedUnderPodcasts() {
        var h = harness()
        h.turn(1)
        h.click(.select)
        h.turn(1)
        #expect(h.screen[2].contains("The Talk Show") && cursor(h) == 1)
        _ = h.send(.podcastDownloads([
            download("One", show: "New Show", showID: nil, bytes: 5, total: 10),
            download("Two", show: "New Show", showID: nil, bytes: 0, total: 10),
        ], at: h.now))
        // Refresh, then the arriving show (once), then the library's shows; the cursor stays on its show.
        #expect(h.screen[1].contains("Refresh"), "\(h.screen)")
        #expect(h.screen[2].contains("New Show") && h.screen[2].hasSuffix("50%"), "\(h.screen)")
        #expect(h.screen[3].contains("The Talk Show"), "\(h.screen)")
        #expect(cursor(h) == 2)
        h.turn(-1)
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts", "not a screen of its own until its files arrive")
        #expect(h.playbackCommands.isEmpty)
    }

    @Test func aListOpenedDuringADownloadShowsItAtOnce() {
        var h = harness()
        openShow(&h)
        let show = showID(h)
        h.click(.menu)
        _ = h.send(.podcastDownloads([download("Episode 4", showID: show, bytes: 1, total: 4)], at: h.now))
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts.episodes", "\(h.screen)")
        #expect(h.screen[1].contains("Episode 4") && h.screen[1].hasSuffix("25%"), "\(h.screen)")
    }
}
