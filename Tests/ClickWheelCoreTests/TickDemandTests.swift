import ClickWheelCore
import ClickWheelTestKit
import Testing

/// `Engine.wantsTicks`: the shell's tick timer runs only while time can change something.
@Suite struct TickDemandTests {
    static func library() -> InMemoryLibrary {
        InMemoryLibrary(tracks: [
            FixtureTrack(title: "A Song With A Title Far Too Long For Any Screen", artist: "X", album: "Y", trackNumber: 1),
            FixtureTrack(title: "Short", artist: "X", album: "Y", trackNumber: 2),
        ])
    }

    func harness(backlight: Int = 0) -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = backlight
        return EngineHarness(library: Self.library(), geometry: DisplayGeometry(columns: 20, rows: 4), settings: settings)
    }

    func wants(_ h: EngineHarness) -> Bool {
        h.engine.wantsTicks()
    }

    @Test func aStillMenuNeedsNoTicks() {
        var h = harness()
        #expect(!wants(h) as Bool)
        h.turn(1)
        #expect(!wants(h) as Bool, "a short line under the cursor does not scroll")
    }

    @Test func theBacklightTimerTicksUntilTheLightGoesOff() {
        var h = harness(backlight: 10)
        #expect(wants(h) as Bool)
        h.wait(ms: 10_100)
        #expect(!wants(h) as Bool)
        h.turn(1)
        #expect(wants(h) as Bool, "input lights it again")
    }

    @Test func aLongLineUnderTheCursorScrolls() {
        var h = harness()
        h.click(.select)
        h.turn(3)
        h.click(.select)
        h.wait(ms: 1000)
        #expect(h.screen[1] == ">Short              ")
        #expect(!wants(h) as Bool, "Short fits")
        h.turn(1)
        h.wait(ms: 1000)
        #expect(wants(h) as Bool, "the marquee of the long title")
    }

    @Test func holdsPlayingAndTheSleepTimerTick() {
        var h = harness()
        h.send(.button(.select, .down, at: h.now.adding(ms: 10)))
        #expect(wants(h) as Bool, "a hold is timed by ticks")
        h.send(.button(.select, .up, at: h.now.adding(ms: 100)))
        h.turn(3)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        #expect(wants(h) as Bool, "Now Playing, playing")
        h.click(.playPause)
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        h.wait(ms: 7000)
        #expect(!wants(h) as Bool, "paused, on a menu")
        NextTickTests.setSleepTimer(&h)
        #expect(h.engine.sleepTimer != nil)
        #expect(wants(h) as Bool, "a timed sleep counts down")
    }
}
