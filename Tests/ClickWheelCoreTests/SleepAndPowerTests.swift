import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Settings → Sleep Timer, Shut Down / Restart and the Goodbye screen: scripted events against the
/// pure engine (time comes with the ticks), effects and frames checked.
@Suite struct SleepAndPowerTests {
    /// Alpha 200 s, Bravo 10 min, Charlie 100 s (ids 1–3, Songs in that order).
    static func library() -> InMemoryLibrary {
        InMemoryLibrary(tracks: [
            FixtureTrack(title: "Alpha", artist: "X", album: "Y", trackNumber: 1, durationMS: 200_000),
            FixtureTrack(title: "Bravo", artist: "X", album: "Y", trackNumber: 2, durationMS: 600_000),
            FixtureTrack(title: "Charlie", artist: "X", album: "Y", trackNumber: 3, durationMS: 100_000),
        ])
    }

    /// The backlight always on, so no press is swallowed waking it.
    func harness(_ size: DisplayGeometry = DisplayGeometry(columns: 20, rows: 4)) -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = 0
        return EngineHarness(library: Self.library(), geometry: size, settings: settings)
    }

    /// Music → Songs → row `index`: plays, Now Playing on screen.
    func playSong(_ h: inout EngineHarness, _ index: Int) {
        h.click(.select)
        h.turn(3)
        h.click(.select)
        h.turn(index)
        h.click(.select)
    }

    /// From the main menu (cursor on Music) to Settings, cursor on row `row`.
    func settingsRow(_ h: inout EngineHarness, _ row: Int) {
        h.turn(3)
        h.click(.select)
        h.turn(row)
    }

    static let sleepRow = 12
    static let shutDownRow = 13

    /// Picks choice `index` of the Sleep Timer menu (0 Off, 1 15 min, …, 6 End of Track).
    func chooseSleep(_ h: inout EngineHarness, _ index: Int) {
        h.click(.select)
        h.turn(index)
        h.click(.select)
    }

    func playing(_ h: EngineHarness) -> Bool { h.engine.player.status == .playing }

    @Test func fifteenMinutesPausesPlaybackAndSaysSo() {
        var h = harness()
        playSong(&h, 1)
        #expect(playing(h))
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        settingsRow(&h, Self.sleepRow)
        #expect(h.screenText.contains("Sleep Timer") && h.screenText.contains("Off"))
        chooseSleep(&h, 1)
        #expect(h.engine.sleepTimer != nil)
        #expect(h.screenText.contains("15m"), "back on Settings, the row shows the time left:\n\(h.screenText)")
        h.wait(ms: 14 * 60_000)
        #expect(h.screenText.contains(" 1m"))
        #expect(playing(h))
        h.wait(ms: 60_000)
        #expect(h.engine.player.status == .paused)
        #expect(h.playbackCommands.last == .pause)
        #expect(h.screenText.contains("Sleep Timer") && h.screenText.contains("Paused"))
        #expect(h.engine.sleepTimer == nil)
        h.wait(ms: 3100)
        #expect(h.screenText.contains("Off"), "the notice goes; the row reads Off again:\n\(h.screenText)")
        h.wait(ms: 60_000)
        #expect(!h.playbackCommands.contains(.resume))
    }

    @Test func offCancelsATimer() {
        var h = harness()
        playSong(&h, 0)
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        settingsRow(&h, Self.sleepRow)
        chooseSleep(&h, 2)
        #expect(h.screenText.contains("30m"))
        chooseSleep(&h, 0)
        #expect(h.engine.sleepTimer == nil)
        h.wait(ms: 31 * 60_000)
        #expect(playing(h))
    }

    @Test func endOfTrackPausesOnTheNextTrackAndPlayCarriesOn() {
        var h = harness()
        playSong(&h, 0)
        h.report(.started(index: 0))
        #expect(h.engine.entry(after: 0) == 1)
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        settingsRow(&h, Self.sleepRow)
        chooseSleep(&h, 6)
        #expect(h.engine.sleepTimer == .endOfTrack)
        #expect(h.screenText.contains("End"))
        // The shell is told the queue again, so it takes back the next track it had handed over early.
        #expect(h.playbackCommands.last == .replaceQueue([1, 2, 3], current: 0))
        #expect(h.engine.entry(after: 0) == nil)
        h.wait(ms: 10 * 60_000)
        #expect(playing(h), "time does not matter, the track's end does")
        h.report(.finished(index: 0))
        #expect(!h.lastEffects.contains { if case .playback(.play) = $0 { true } else { false } })
        #expect(h.engine.player.current == 1 && h.engine.player.status == .paused)
        #expect(h.screenText.contains("Paused"))
        #expect(h.engine.sleepTimer == nil && h.engine.entry(after: 1) == 2)
        h.click(.playPause)
        #expect(h.playbackCommands.last == .play(index: 1), "Play/Pause loads the next track")
        #expect(playing(h))
    }

    @Test func endOfTrackOnTheLastTrackStopsAsUsual() {
        var h = harness()
        playSong(&h, 2)
        h.report(.started(index: 2))
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        settingsRow(&h, Self.sleepRow)
        chooseSleep(&h, 6)
        h.report(.finished(index: 2))
        #expect(!h.engine.player.hasCurrent)
        #expect(h.engine.sleepTimer == nil)
    }

    @Test func shutDownAndRestartAskFirst() {
        var h = harness()
        settingsRow(&h, Self.shutDownRow)
        h.click(.select)
        #expect(h.screen.first?.contains("Shut Down") == true)
        #expect(h.screenText.contains("Cancel"))
        h.click(.menu)
        #expect(!h.effects.contains(.power(.shutDown)), "Menu cancels")
        h.click(.select)
        h.click(.select)
        #expect(!h.effects.contains(.power(.shutDown)), "Cancel is the first row")
        h.click(.select)
        h.turn(1)
        h.click(.select)
        #expect(h.lastEffects.contains(.power(.shutDown)))
        #expect(h.screen.first?.contains("Settings") == true)
        h.turn(1)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        #expect(h.lastEffects.contains(.power(.restart)))
        #expect(h.effects.filter { if case .power = $0 { true } else { false } }.count == 2)
    }

    @Test func shutdownShowsGoodbye() {
        var h = harness(DisplayGeometry(columns: 16, rows: 2))
        playSong(&h, 0)
        h.send(.shutdown(at: h.now.adding(ms: 10)))
        #expect(h.screenText.contains("Goodbye"))
        #expect(h.lastEffects.contains { if case .render = $0 { true } else { false } })
    }

    @Test(arguments: ["16x2", "20x4"])
    func walk(size: String) throws {
        var h = harness(try #require(DisplayGeometry(size)))
        var walk = WalkRecord()
        playSong(&h, 1)
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        settingsRow(&h, Self.sleepRow)
        walk.snap("Settings: Sleep Timer", h.engine.frame)
        h.click(.select)
        walk.snap("Sleep Timer's choices", h.engine.frame)
        h.turn(6)
        walk.snap("End of Track", h.engine.frame)
        h.turn(-4)
        h.click(.select)
        walk.snap("30 minutes set: back on Settings", h.engine.frame)
        h.wait(ms: 29 * 60_000 + 30_000)
        walk.snap("29.5 min later", h.engine.frame)
        h.wait(ms: 30_000)
        walk.snap("the timer ran out: paused", h.engine.frame)
        h.wait(ms: 3000)
        h.turn(1)
        h.click(.select)
        walk.snap("Shut Down asks", h.engine.frame)
        h.click(.menu)
        h.turn(1)
        h.click(.select)
        walk.snap("Restart asks", h.engine.frame)
        h.click(.menu)
        h.send(.shutdown(at: h.now.adding(ms: 10)))
        walk.snap("stopping: Goodbye", h.engine.frame)
        Golden.check(walk.text, name: "walk-sleep-power-\(size).txt")
    }
}
