import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Resume after a restart, checkpoints, play counts and podcast places: scripted events against the
/// pure engine, effects checked.
@Suite struct ResumeTests {
    static let g20x4 = DisplayGeometry(columns: 20, rows: 4)

    /// Alpha 200 s, Bravo 10 min, Charlie 100 s (ids 1–3, Songs in that order) and one 1,000 s episode (id 4).
    static func library() -> InMemoryLibrary {
        InMemoryLibrary(tracks: [
            FixtureTrack(title: "Alpha", artist: "X", album: "Y", trackNumber: 1, durationMS: 200_000),
            FixtureTrack(title: "Bravo", artist: "X", album: "Y", trackNumber: 2, durationMS: 600_000),
            FixtureTrack(title: "Charlie", artist: "X", album: "Y", trackNumber: 3, durationMS: 100_000),
            FixtureTrack(
                title: "Episode", artist: "Radio", album: "The Show", genre: "Podcast", durationMS: 1_000_000,
                isPodcast: true),
        ])
    }

    static let episode: TrackID = 4
    /// The wall clock at the harness's origin in these tests, unix milliseconds.
    static let wallOrigin: Int64 = 1_700_000_000_000

    /// A harness that knows the wall time, on the main menu (the backlight always on: no swallowed presses).
    func harness(_ library: InMemoryLibrary = library(), settings: Settings = Settings()) -> EngineHarness {
        var settings = settings
        settings.backlightSeconds = 0
        var h = EngineHarness(library: library, geometry: Self.g20x4, settings: settings)
        h.send(.wallClock(unixMS: Self.wallOrigin + h.now.microseconds / 1000, at: h.now))
        return h
    }

    /// Plays Songs from row `index`.
    func playSong(_ h: inout EngineHarness, _ index: Int) {
        h.click(.select)
        h.turn(3)
        h.click(.select)
        h.turn(index)
        h.click(.select)
    }

    /// Plays the show's one episode (Podcasts → The Show → Episode).
    func playEpisode(_ h: inout EngineHarness) {
        h.turn(1)
        h.click(.select)
        h.click(.select)
        h.click(.select)
    }

    func checkpoints(_ effects: [Effect]) -> [ResumeState] {
        effects.compactMap { if case .checkpoint(let s) = $0 { s } else { nil } }
    }

    /// Plays, skips, finished episodes and bookmarks (but not those that go with a checkpoint).
    func counts(_ effects: [Effect]) -> [Effect] {
        effects.indices.filter { i in
            switch effects[i] {
            case .played, .skipped, .episodeFinished: return true
            case .bookmark:
                if i > 0, case .checkpoint = effects[i - 1] { return false }
                return true
            default: return false
            }
        }.map { effects[$0] }
    }

    // MARK: checkpoints

    @Test func checkpointsAfterEachChangeAndEveryFourSecondsWhilePlaying() {
        var h = harness()
        playSong(&h, 1)
        let first = checkpoints(h.lastEffects)
        #expect(first == [ResumeState(queue: [1, 2, 3], current: 1, positionMS: 0, status: .playing)])
        var before = h.effects.count
        // As in the service: no ticks while a song plays on a still screen, a position report each second.
        for second in 1...12 {
            h.idle(ms: 990)
            h.report(.position(ms: second * 1000))
        }
        let cadence = checkpoints(Array(h.effects[before...]))
        #expect(cadence.map(\.positionMS) == [4000, 8000, 12_000], "every 4 s, with the position just reported")
        h.click(.playPause)
        #expect(checkpoints(h.lastEffects).map(\.status) == [.paused])
        before = h.effects.count
        h.wait(ms: 20_000)
        #expect(checkpoints(Array(h.effects[before...])).isEmpty, "nothing while paused")
        h.click(.next)
        #expect(checkpoints(h.lastEffects).map(\.current) == [2])
    }

    @Test func checkpointEffectsAtShutdownCarryTheStateAndTheEpisodePlace() {
        var h = harness()
        playEpisode(&h)
        h.report(.position(ms: 123_000))
        #expect(h.engine.checkpointEffects() == [
            .checkpoint(ResumeState(queue: [Self.episode], current: 0, positionMS: 123_000, status: .playing)),
            .bookmark(Self.episode, ms: 123_000),
        ])
    }

    // MARK: restore

    @Test func restoreComesBackPausedAndPlayPauseStartsAtThePosition() {
        var h = harness()
        h.send(.restore(ResumeState(queue: [3, 1, 2], current: 1, positionMS: 42_000, status: .playing), at: h.now))
        #expect(h.lastEffects.contains(.playback(.replaceQueue([3, 1, 2], current: nil))))
        #expect(!h.lastEffects.contains { if case .checkpoint = $0 { true } else { false } })
        #expect(h.engine.player.status == .paused)
        #expect(h.engine.player.current == 1)
        #expect(h.engine.player.elapsedMS == 42_000)
        h.turn(5)  // Now Playing: the main menu's last row, after Extras
        #expect(h.screen.contains { $0.hasPrefix(">Now Playing") })
        h.click(.playPause)
        #expect(Array(h.playbackCommands.suffix(2)) == [.play(index: 1), .seek(ms: 42_000)])
        #expect(h.engine.player.status == .playing)
        // The shell's start report does not reset the position to 0.
        h.report(.started(index: 1))
        #expect(h.engine.player.elapsedMS == 42_000)
        // From then on Play/Pause is plain pause and resume.
        h.click(.playPause)
        h.click(.playPause)
        #expect(Array(h.playbackCommands.suffix(2)) == [.pause, .resume])
    }

    @Test func aRestoreAfterSomethingStartedIsIgnored() {
        var h = harness()
        playSong(&h, 0)
        h.send(.restore(ResumeState(queue: [3], current: 0, positionMS: 1000, status: .paused), at: h.now))
        #expect(h.engine.player.queue == [1, 2, 3])
        #expect(h.engine.player.status == .playing)
    }

    /// Found by the soak: a queue with no current entry (stopped after `clear` and `add`) came back empty.
    @Test func aQueueWithNoCurrentEntryComesBackStopped() {
        var h = harness()
        h.send(.restore(ResumeState(queue: [3, 1], current: nil, positionMS: 0, status: .stopped), at: h.now))
        #expect(h.playbackCommands == [.replaceQueue([3, 1], current: nil)])
        #expect(h.engine.player.queue == [3, 1])
        #expect(h.engine.player.current == nil)
        #expect(h.engine.player.status == .stopped)
        #expect(h.engine.resumeState == ResumeState(queue: [3, 1], current: nil, positionMS: 0, status: .stopped))
        // Play/Pause then plays the queue from its first entry.
        h.click(.playPause)
        #expect(h.engine.player.status == .playing)
        #expect(h.engine.player.currentID == 3)
        // A listener who queued something first keeps it.
        var quicker = harness()
        quicker.send(.restore(ResumeState(queue: [3], current: nil, positionMS: 0, status: .stopped), at: quicker.now))
        quicker.send(.restore(ResumeState(queue: [1, 2], current: nil, positionMS: 0, status: .stopped), at: quicker.now))
        #expect(quicker.engine.player.queue == [3])
    }

    @Test func resumePlayingCarriesOnWhatWasPlaying() {
        var settings = Settings()
        settings.resumePlaying = true
        var h = harness(settings: settings)
        h.send(.restore(ResumeState(queue: [1, 2], current: 0, positionMS: 7000, status: .playing), at: h.now))
        #expect(h.playbackCommands == [.replaceQueue([1, 2], current: nil), .play(index: 0), .seek(ms: 7000)])
        #expect(h.engine.player.status == .playing)
        // What was paused stays paused.
        var paused = harness(settings: settings)
        paused.send(.restore(ResumeState(queue: [1, 2], current: 0, positionMS: 7000, status: .paused), at: paused.now))
        #expect(paused.engine.player.status == .paused)
        #expect(paused.playbackCommands == [.replaceQueue([1, 2], current: nil)])
    }

    @Test func shuffledQueueComesBackWithItsListOrder() {
        var settings = Settings()
        settings.shuffle = .songs
        var h = harness(settings: settings)
        let saved = ResumeState(queue: [3, 1, 2], unshuffledQueue: [1, 2, 3], current: 0, positionMS: 0, status: .paused)
        h.send(.restore(saved, at: h.now))
        #expect(h.engine.resumeState == saved)
        // Shuffle turned off since the checkpoint: list order, same track.
        var plain = harness()
        plain.send(.restore(saved, at: plain.now))
        #expect(plain.engine.player.queue == [1, 2, 3])
        #expect(plain.engine.player.currentID == 3)
    }

    /// Found by the soak: a queue shuffled by clients since (songs added and removed) and Shuffle off at
    /// the restore lost the songs added after the shuffle.
    @Test func listOrderAtARestoreKeepsSongsAddedSince() {
        let saved = ResumeState(
            queue: [3, 4, 1, 4], unshuffledQueue: [1, 2, 3], current: 1, positionMS: 0, status: .paused)
        var h = harness()
        h.send(.restore(saved, at: h.now))
        #expect(h.engine.player.queue == [1, 3, 4, 4])
        #expect(h.engine.player.currentID == 4)
    }

    /// Found by the soak: Shuffle Songs with Shuffle off kept the library's order as the list order, so
    /// a restart (Shuffle still off) brought the queue back in the library's order, not the one playing.
    @Test func shuffleSongsComesBackInTheOrderItPlayed() {
        var h = harness()
        h.turn(2)
        h.click(.select)  // Shuffle Songs (main menu: Music, Podcasts, Shuffle Songs)
        let playing = h.engine.player.queue
        #expect(playing.count == 3 && h.engine.player.status == .playing)
        let saved = h.engine.resumeState
        #expect(saved.unshuffledQueue == nil)
        var again = harness()
        again.send(.restore(saved, at: again.now))
        #expect(again.engine.player.queue == playing)
    }

    @Test func tracksThatAreGoneAreDropped() {
        let saved = ResumeState(queue: [5, 1, 9, 2], current: 2, positionMS: 30_000, status: .paused)
        let known: Set<TrackID> = [1, 2, 5]
        // The current track went: the next surviving entry, from its beginning.
        #expect(saved.keeping(known.contains) == ResumeState(queue: [5, 1, 2], current: 2, positionMS: 0, status: .paused))
        var kept = saved
        kept.current = 1
        #expect(kept.keeping(known.contains) == ResumeState(queue: [5, 1, 2], current: 1, positionMS: 30_000, status: .paused))
        #expect(saved.keeping { $0 == 5 }.current == nil)
    }

    // MARK: play counts

    @Test func playedAtHalfOrFourMinutesOncePerPlayThrough() {
        var h = harness()
        playSong(&h, 0)
        h.report(.position(ms: 99_000))
        #expect(counts(h.effects).isEmpty)
        h.report(.position(ms: 100_000))
        #expect(counts(h.lastEffects) == [.played(1, atMS: 100_000)])
        h.report(.position(ms: 150_000))
        h.report(.finished(index: 0))
        #expect(counts(h.effects) == [.played(1, atMS: 100_000)], "counted once")
        // Bravo is 10 minutes: 4 minutes count.
        h.report(.position(ms: 239_000))
        #expect(counts(h.lastEffects).isEmpty)
        h.report(.position(ms: 240_000))
        #expect(counts(h.lastEffects) == [.played(2, atMS: 240_000)])
        // Repeat One plays it again: a new play-through counts again.
        var settings = Settings()
        settings.repeatMode = .one
        h.send(.settings(settings, at: h.now))
        h.report(.finished(index: 1))
        h.report(.position(ms: 300_000))
        #expect(
            counts(h.effects) == [.played(1, atMS: 100_000), .played(2, atMS: 240_000), .played(2, atMS: 300_000)])
    }

    @Test func aTrackPlayedToItsEndCountsEvenWithoutPositions() {
        var h = harness()
        playSong(&h, 2)
        h.report(.finished(index: 2))
        #expect(counts(h.effects) == [.played(3, atMS: 100_000)], "played to its end: at its whole length")
    }

    /// MPD's `seekcur inf` (the song's end; what a slider dragged to its end sends): the position passes the
    /// half, so it is a play, counted once when the seek lands, not again when the track then ends.
    @Test func aSeekToTheEndCountsAPlayOnce() {
        var h = harness()
        playSong(&h, 0)
        h.report(.position(ms: 2_000))
        let seek = h.engine.control(.seekCurrent(ms: Int.max, relative: false), at: h.now)
        #expect(counts(seek.effects) == [.played(1, atMS: 199_999)], "at the last millisecond")
        h.report(.finished(index: 0))
        #expect(counts(h.lastEffects).isEmpty, "counted once")
    }

    @Test func leftBeforeTenPercentIsASkip() {
        var h = harness()
        playSong(&h, 2)
        h.report(.position(ms: 9_999))
        h.click(.previous)  // 10 s in: Previous restarts the track, the same play-through
        #expect(counts(h.effects).isEmpty)
        h.click(.next)
        #expect(counts(h.effects).isEmpty, "the last song: Next does nothing")
        h.click(.previous)  // at 0 s: back to Bravo, leaving Charlie at 0 %
        #expect(counts(h.lastEffects) == [.skipped(3, atMS: 0)])
        h.report(.position(ms: 60_000))  // 10 % of Bravo
        h.click(.next)
        #expect(counts(h.lastEffects).isEmpty)
        // A track that fails to play is no skip.
        h.report(.failed(index: 2, message: "bad"))
        #expect(counts(h.lastEffects).isEmpty)
    }

    @Test func choosingAnotherListSkipsTheCurrentTrack() {
        var h = harness()
        playSong(&h, 0)
        h.report(.position(ms: 5000))
        h.click(.menu)
        h.click(.select)
        #expect(counts(h.lastEffects) == [.skipped(1, atMS: 5000)])
    }

    // MARK: podcasts

    @Test func rewindCurve() {
        #expect(Engine.rewindMS(awayMS: 0) == 0)
        #expect(Engine.rewindMS(awayMS: 59_999) == 0)
        #expect(Engine.rewindMS(awayMS: 60_000) == 2000)
        #expect(Engine.rewindMS(awayMS: 330_000) == 6000)
        #expect(Engine.rewindMS(awayMS: 600_000) == 10_000)
        #expect(Engine.rewindMS(awayMS: 3_600_000) == 15_000)
        #expect(Engine.rewindMS(awayMS: 86_400_000) == 30_000)
        #expect(Engine.rewindMS(awayMS: 30 * 86_400_000) == 30_000)
        let samples = stride(from: Int64(0), through: 90_000_000, by: 10_000).map { Engine.rewindMS(awayMS: $0) }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 }, "never shrinks with the time away")
    }

    @Test func anEpisodeStartsAtItsBookmarkRewoundByTheTimeAway() {
        let library = Self.library()
        var h = harness(library)
        let anHourAgo = Self.wallOrigin + h.now.microseconds / 1000 - 3_600_000
        library.setBookmark(Self.episode, Bookmark(positionMS: 300_000, savedAtMS: anHourAgo))
        playEpisode(&h)
        #expect(Array(h.playbackCommands.suffix(2)) == [.play(index: 0), .seek(ms: 285_000)])
        #expect(h.engine.player.elapsedMS == 285_000)
        h.report(.started(index: 0))
        #expect(h.engine.player.elapsedMS == 285_000)
        // Checkpoints carry its place; leaving it (another list) remembers it.
        h.report(.position(ms: 400_000))
        h.wait(ms: 4000)
        #expect(h.effects.contains(.bookmark(Self.episode, ms: 400_000)))
        #expect(
            !h.effects.contains { if case .played(Self.episode, _) = $0 { true } else { false } },
            "resumed past the played mark: counted before")
        h.click(.menu)
        h.click(.menu)
        h.click(.menu)
        h.turn(-1)
        playSong(&h, 0)
        #expect(counts(h.lastEffects) == [.bookmark(Self.episode, ms: 400_000)])
    }

    @Test func aShortTimeAwayDoesNotRewind() {
        let library = Self.library()
        var h = harness(library)
        let justNow = Self.wallOrigin + h.now.microseconds / 1000 - 30_000
        library.setBookmark(Self.episode, Bookmark(positionMS: 300_000, savedAtMS: justNow))
        playEpisode(&h)
        #expect(Array(h.playbackCommands.suffix(2)) == [.play(index: 0), .seek(ms: 300_000)])
    }

    @Test func aLongPauseRewindsAnEpisodeNotASong() {
        var h = harness()
        playEpisode(&h)
        h.report(.position(ms: 500_000))
        h.click(.playPause)
        h.wait(ms: 600_000)
        h.click(.playPause)
        #expect(Array(h.playbackCommands.suffix(2)) == [.resume, .seek(ms: 490_000)])
        h.click(.playPause)
        h.wait(ms: 30_000)
        h.click(.playPause)
        #expect(h.playbackCommands.last == .resume, "under a minute: no rewind")

        var song = harness()
        playSong(&song, 1)
        song.report(.position(ms: 50_000))
        song.click(.playPause)
        song.wait(ms: 600_000)
        song.click(.playPause)
        #expect(song.playbackCommands.last == .resume)
    }

    @Test func aRestoredEpisodeRewindsByTheTimeSinceTheCheckpoint() {
        var h = harness()
        let saved = ResumeState(
            queue: [Self.episode], current: 0, positionMS: 500_000, status: .playing,
            savedAtMS: Self.wallOrigin + h.now.microseconds / 1000 - 86_400_000)
        h.send(.restore(saved, at: h.now))
        h.click(.playPause)
        #expect(Array(h.playbackCommands.suffix(2)) == [.play(index: 0), .seek(ms: 470_000)])
    }

    @Test func pastNinetyFivePercentAnEpisodeIsFinished() {
        let library = Self.library()
        var h = harness(library)
        library.setBookmark(Self.episode, Bookmark(positionMS: 940_000, savedAtMS: nil))
        playEpisode(&h)
        #expect(h.playbackCommands.last == .seek(ms: 940_000))
        h.report(.position(ms: 949_000))
        #expect(counts(h.lastEffects).isEmpty)
        h.report(.position(ms: 950_000))
        #expect(counts(h.lastEffects) == [.episodeFinished(Self.episode)])
        // No more bookmarks for it, at checkpoints or when it ends.
        h.wait(ms: 6000)
        h.report(.finished(index: 0))
        #expect(!h.effects.contains(.bookmark(Self.episode, ms: 950_000)))
        #expect(counts(h.effects) == [.episodeFinished(Self.episode)], "started past the played mark: counted before")
    }

    @Test func anEpisodePlayedToItsEndIsFinished() {
        var h = harness()
        playEpisode(&h)
        h.report(.position(ms: 100_000))
        h.report(.finished(index: 0))
        #expect(counts(h.effects) == [.played(Self.episode, atMS: 1_000_000), .episodeFinished(Self.episode)])
    }

    @Test func shuffleSongsLeavesPodcastsOut() throws {
        let library = Fixtures.sample()
        var h = EngineHarness(library: library, geometry: Self.g20x4)
        h.turn(2)
        h.click(.select)
        let podcasts = try h.engine.player.queue.filter { try library.track($0)?.isPodcast ?? true }
        #expect(!h.engine.player.queue.isEmpty)
        #expect(podcasts.isEmpty)
    }
}
