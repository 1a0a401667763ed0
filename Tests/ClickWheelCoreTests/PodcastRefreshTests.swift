import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Podcasts → Refresh: with the service's subscriptions (`EngineConfiguration.podcastRefresh`) the
/// Podcasts list starts with a Refresh row that asks for every feed now (`Effect.refreshPodcasts`) and
/// stays where it is; without them, the list is the shows alone.
@Suite struct PodcastRefreshTests {
    func harness(refresh: Bool) -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = 0
        settings.clicker = .off
        var configuration = EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4), version: "test")
        configuration.podcastRefresh = refresh
        return EngineHarness(engine: Engine(library: Fixtures.sample(), configuration: configuration, settings: settings))
    }

    /// Main menu → Podcasts (the second row).
    func openPodcasts(_ h: inout EngineHarness) {
        h.turn(1)
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts")
    }

    @Test func refreshAsksForEveryFeedAndStays() {
        var h = harness(refresh: true)
        openPodcasts(&h)
        #expect(h.screen.first?.hasPrefix("Podcasts") == true, "\(h.screen)")
        #expect(h.screen[1].contains("Refresh"), "\(h.screen)")
        h.click(.select)
        #expect(h.lastEffects.contains(.refreshPodcasts))
        #expect(h.engine.position().menu == "podcasts", "still on Podcasts")
        h.turn(1)
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts.episodes", "the show below Refresh opens as before")
        #expect(!h.effects.contains { if case .playback = $0 { true } else { false } })
    }

    @Test func withoutTheServiceThereIsNoRefreshRow() {
        var h = harness(refresh: false)
        openPodcasts(&h)
        #expect(!h.screenText.contains("Refresh"), "\(h.screen)")
        h.click(.select)
        #expect(h.engine.position().menu == "podcasts.episodes")
        #expect(!h.effects.contains(.refreshPodcasts))
    }
}
