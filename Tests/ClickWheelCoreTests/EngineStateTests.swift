import ClickWheelTestKit
import Testing

@testable import ClickWheelCore

/// The parts of the engine's state (`EngineState.swift`: `ScreenState`, `InputState`, `PlayOrder`,
/// `LibraryCaches`), each checked for what it holds as the engine goes through real events: who sets a
/// field, who clears it, and that what is kept is kept only as long as it is true.
@Suite struct EngineStateTests {
    static let g20x4 = DisplayGeometry(columns: 20, rows: 4)

    /// A harness on Music → Songs of the sample library.
    func onSongs(settings: Settings = Settings()) -> EngineHarness {
        var h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4, settings: settings)
        h.click(.select)
        h.turn(3)
        h.click(.select)
        return h
    }

    // MARK: ScreenState

    @Test func theScreenStartsLitInNormalModeWithNoNotices() {
        let h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4)
        let s = h.engine.screen
        #expect(s.backlightOn && !s.goodbye && s.nowPlayingMode == .normal)
        #expect(s.volumeShownUntil == nil && s.letterUntil == nil && s.lockNoticeUntil == nil && s.sleepNoticeUntil == nil)
    }

    @Test func theVolumeBarIsShownForItsTimeAndClearsItself() {
        var h = onSongs()
        h.click(.select)  // a song plays: Now Playing
        h.turn(1)
        let until = h.engine.screen.volumeShownUntil
        #expect(until == h.now.adding(ms: Engine.volumeOverlayMS))
        h.wait(ms: Engine.volumeOverlayMS + 200)
        #expect(h.engine.screen.volumeShownUntil == nil)
    }

    @Test func leavingNowPlayingDropsItsModeAndTheVolumeBar() {
        var h = onSongs()
        h.click(.select)
        h.turn(1)
        #expect(h.engine.screen.volumeShownUntil != nil)
        h.click(.menu)
        #expect(h.engine.screen.volumeShownUntil == nil && h.engine.screen.nowPlayingMode == .normal)
    }

    @Test func shutdownSaysGoodbye() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4)
        h.send(.shutdown(at: h.now))
        #expect(h.engine.screen.goodbye)
    }

    // MARK: InputState

    @Test func everyInputStampsTheLastInputTime() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4)
        h.turn(1)
        #expect(h.engine.input.lastInput == h.now)
        h.wait(ms: 500)
        #expect(h.engine.input.lastInput == h.now.adding(ms: -500), "ticks are not input")
        h.click(.select)
        #expect(h.engine.input.lastInput == h.now)
    }

    @Test func theHoldSwitchTogglesWithItsGestureOnly() {
        var h = onSongs()
        #expect(!h.engine.input.locked)
        h.click(.playPause)
        #expect(!h.engine.input.locked, "a click is not the hold gesture")
        h.hold(.playPause, ms: 700)
        #expect(h.engine.input.locked)
        h.hold(.playPause, ms: 700)
        #expect(!h.engine.input.locked)
    }

    // MARK: PlayOrder

    @Test func theListOrderIsKeptOnlyWhileShuffleIsOn() {
        var h = onSongs()
        h.click(.select)
        #expect(h.engine.queue.unshuffledOrder == nil, "shuffle off: the queue is the list order itself")
        var shuffled = Settings()
        shuffled.shuffle = .songs
        var s = onSongs(settings: shuffled)
        s.click(.select)
        let kept = s.engine.queue.unshuffledOrder
        #expect(kept?.count == s.engine.player.queue.count, "every song of the queue, in list order")
        #expect(kept.map(Set.init) == Set(s.engine.player.entries.ids), "the queue's own song ids")
    }

    @Test func shuffleIsRepeatableFromItsSeed() {
        var settings = Settings()
        settings.shuffle = .songs
        var a = onSongs(settings: settings)
        var b = onSongs(settings: settings)
        a.click(.select)
        b.click(.select)
        #expect(a.engine.player.queue == b.engine.player.queue, "the same seed, the same order")
    }

    @Test func theOnTheGoListStartsEmpty() {
        let h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4)
        #expect(h.engine.queue.onTheGo.isEmpty)
    }

    // MARK: LibraryCaches

    @Test func theScanCountShowsWhileAScanRunsAndGoesWithIt() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4)
        h.send(.scanning(count: 12, at: h.now))
        #expect(h.engine.caches.scanCount == 12)
        h.send(.scanning(count: nil, at: h.now))
        #expect(h.engine.caches.scanCount == nil)
    }

    @Test func aLibraryChangeDropsWhatWasReadFromTheLibrary() {
        var h = onSongs()
        h.engine.caches.audiobooksPresent = true
        h.engine.caches.statistics = LibraryStatistics(
            songs: 1, albums: 1, artists: 1, podcastEpisodes: 0, totalDurationMS: 1)
        h.send(.libraryChanged(at: h.now))
        #expect(h.engine.caches.statistics == nil)
        #expect(h.engine.caches.chapterCache == nil)
        #expect(h.engine.caches.audiobooksPresent != true, "read again from the library (which has none), not kept")
    }
}
