import ClickWheelCore
import ClickWheelTestKit
import Testing

/// `Engine.nextTick`: the shell ticks only when time can change something. Each scenario runs two copies
/// of the engine side by side: one ticked every 10 ms (what a fast timer would show), one ticked only at
/// the times `nextTick` names (what the service does). Every 10 ms their frames and effects must agree,
/// and the lazy copy must need far fewer ticks. While a song plays both get a position report every 500 ms,
/// as the audio thread sends them (they are events: the clock and the checkpoints need no ticks); the
/// checkpoints then come with reports rather than ticks, so they are compared apart: at least every 5 s.
@Suite struct NextTickTests {
    static func library() -> InMemoryLibrary {
        InMemoryLibrary(tracks: [
            FixtureTrack(title: "A Song With A Title Far Too Long For Any Screen", artist: "X", album: "Y", trackNumber: 1),
            FixtureTrack(title: "Short", artist: "X", album: "Y", trackNumber: 2),
        ])
    }

    func harness(columns: Int = 20, rows: Int = 4, backlight: Int = 0) -> EngineHarness {
        var settings = Settings()
        settings.backlightSeconds = backlight
        return EngineHarness(
            library: Self.library(), geometry: DisplayGeometry(columns: columns, rows: rows), settings: settings)
    }

    /// Runs `ms` milliseconds both ways from the harness's state; returns the lazy copy's tick count.
    @discardableResult
    func sameAsTickingOften(
        _ h: EngineHarness, ms: Int64, playingFromMS: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var often = h.engine
        var lazy = h.engine
        var oftenEffects: [Effect] = []
        var lazyEffects: [Effect] = []
        var lazyTicks = 0
        var lastCheckpoint = h.now
        var t = h.now
        let end = h.now.adding(ms: ms)
        while t < end {
            t = t.adding(ms: 10)
            if let start = playingFromMS, t.milliseconds(since: h.now) % 500 == 0 {
                let report = Event.playback(.position(ms: start + Int(t.milliseconds(since: h.now))), at: t)
                oftenEffects += often.handle(report)
                lazyEffects += lazy.handle(report)
            }
            oftenEffects += often.handle(.tick(t))
            while let next = lazy.nextTick(), next <= t {
                lazyEffects += lazy.handle(.tick(next))
                lazyTicks += 1
                if lazyTicks > 100_000 {
                    Issue.record("nextTick does not move on", sourceLocation: sourceLocation)
                    return lazyTicks
                }
            }
            if lazyEffects.contains(where: Self.isCheckpoint) { lastCheckpoint = t }
            lazyEffects.removeAll(where: Self.isCheckpoint)
            oftenEffects.removeAll(where: Self.isCheckpoint)
            if playingFromMS != nil, t.milliseconds(since: lastCheckpoint) > 5000 {
                Issue.record("no checkpoint for 5 s of playing", sourceLocation: sourceLocation)
                return lazyTicks
            }
            guard lazy.frame == often.frame, lazyEffects == oftenEffects else {
                Issue.record(
                    """
                    at +\(t.milliseconds(since: h.now)) ms the lazy shell shows
                    \(lazy.frame?.lines.joined(separator: "\n") ?? "-")
                    effects \(lazyEffects)
                    but ticking every 10 ms shows
                    \(often.frame?.lines.joined(separator: "\n") ?? "-")
                    effects \(oftenEffects)
                    """, sourceLocation: sourceLocation)
                return lazyTicks
            }
        }
        return lazyTicks
    }

    static func isCheckpoint(_ effect: Effect) -> Bool {
        if case .checkpoint = effect { true } else { false }
    }

    /// Plays the long-titled song and stays on Now Playing.
    func playLongSong(_ h: inout EngineHarness) {
        h.click(.select)  // Music
        h.turn(3)
        h.click(.select)  // Songs
        h.turn(1)
        h.click(.select)  // the long one (sorted as "Song With…", after "Short")
        h.report(.started(index: 1))
    }

    @Test func aStillMenuNeverTicks() {
        let h = harness()
        #expect(h.engine.nextTick() == nil)
        #expect(sameAsTickingOften(h, ms: 5000) == 0)
    }

    @Test func theBacklightTicksOnceWhenItGoesOff() {
        let h = harness(backlight: 10)
        #expect(h.engine.nextTick() == h.now.adding(ms: 10_000) || h.engine.nextTick()! <= h.now.adding(ms: 10_000))
        #expect(sameAsTickingOften(h, ms: 12_000) <= 2)
    }

    @Test func aMarqueeTicksAtItsStepsOnly() {
        var h = harness()
        h.click(.select)
        h.turn(3)
        h.click(.select)
        h.turn(1)
        #expect(h.screen[2].hasPrefix(">A Song With"))
        let ticks = sameAsTickingOften(h, ms: 30_000)
        // 1.5 s pause, then a step every 300 ms: about 90 steps in 30 s, against 3000 fast ticks.
        #expect(ticks > 20 && ticks < 120, "\(ticks) ticks")
    }

    @Test func nowPlayingOnFourRowsTicksForTheMarqueeAndTheArtistAlbumTurn() {
        var h = harness()
        playLongSong(&h)
        #expect(h.screen[0].contains("2 of 2"))
        #expect(sameAsTickingOften(h, ms: 30_000, playingFromMS: 0) < 200)
    }

    @Test func nowPlayingOnTwoRowsTicksForThePositionTurn() {
        var h = harness(columns: 16, rows: 2)
        playLongSong(&h)
        h.report(.position(ms: 1000))
        #expect(sameAsTickingOften(h, ms: 30_000, playingFromMS: 1000) < 200)
    }

    @Test func playingOnAStillMenuNeedsNoTicks() {
        var h = harness()
        playLongSong(&h)
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        #expect(h.screen[0].hasPrefix("ClickWheel") || !h.screen.isEmpty)
        h.wait(ms: 7000)  // past Now Playing's modes and overlays
        #expect(h.engine.nextTick() == nil, "the playing icon does not move; position reports are events")
        #expect(sameAsTickingOften(h, ms: 10_000, playingFromMS: 7000) == 0)
    }

    @Test func theVolumeOverlayEndsOnTime() {
        var h = harness()
        playLongSong(&h)
        h.turn(2)  // volume on Now Playing
        #expect(sameAsTickingOften(h, ms: 8000, playingFromMS: 0) < 200)
    }

    @Test func theLetterJumpOverlayEndsOnTime() {
        var h = harness()
        h.click(.select)
        h.turn(3)
        h.click(.select)
        h.spin(5, intervalMS: 10)
        #expect(sameAsTickingOften(h, ms: 3000) < 40)
    }

    @Test func aHeldButtonTicksUntilReleased() {
        var h = harness()
        playLongSong(&h)
        h.send(.button(.next, .down, at: h.now.adding(ms: 10)))
        #expect(h.engine.nextTick() != nil)
        sameAsTickingOften(h, ms: 2000, playingFromMS: 0)
    }

    /// From the main menu: Settings → Sleep Timer → the first timed choice; back on Settings.
    static func setSleepTimer(_ h: inout EngineHarness) {
        h.turn(3)
        h.click(.select)
        h.turn(12)
        h.click(.select)
        h.turn(1)
        h.click(.select)
    }

    @Test func theSleepTimerRowCountsDownByTheMinute() {
        var h = harness()
        Self.setSleepTimer(&h)
        #expect(h.engine.sleepTimer != nil)
        #expect(h.screen.contains { $0.contains("Sleep Timer") })
        let ticks = sameAsTickingOften(h, ms: 130_000)
        #expect(ticks <= 4, "\(ticks) ticks: one per minute the label shows")
    }
}
