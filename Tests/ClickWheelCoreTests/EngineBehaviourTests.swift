import ClickWheelCore
import ClickWheelTestKit
import Testing

/// Engine behaviours checked through effects and the frame, one behaviour per test.
@Suite struct EngineBehaviourTests {
    static let g20x4 = DisplayGeometry(columns: 20, rows: 4)

    /// A harness on Music → Songs of the sample library.
    func onSongs(_ library: InMemoryLibrary = Fixtures.sample(), settings: Settings = Settings()) -> EngineHarness {
        var h = EngineHarness(library: library, geometry: Self.g20x4, settings: settings)
        h.click(.select)
        h.turn(3)
        h.click(.select)
        return h
    }

    @Test func selectingASongPlaysItsListFromThere() throws {
        let library = Fixtures.sample()
        var h = onSongs(library)
        h.turn(5)
        h.click(.select)
        let songs = try library.trackIDs(of: .songs)
        #expect(h.playbackCommands == [.replaceQueue(songs, current: nil), .play(index: 5)])
        #expect(h.engine.top.destination == .nowPlaying)
        #expect(h.screen[0].hasPrefix("▶ 6 of 270"))
    }

    @Test func listsAreReadByPagesNeverWhole() {
        let library = Fixtures.numbered(1000)
        var h = onSongs(library)
        h.turn(300)
        #expect(h.screen[0] == "Songs       301/1000")
        #expect(library.rowReads.widest <= 32)
        #expect(library.rowReads.calls <= 12)
    }

    @Test func slowTurnsMoveOneRowFastSpinsCrossAThousand() {
        var slow = onSongs(Fixtures.numbered(2000))
        slow.spin(48, intervalMS: 100)
        #expect(slow.engine.top.cursor == 48)
        var fast = onSongs(Fixtures.numbered(2000))
        fast.spin(48, intervalMS: 25)
        #expect(fast.engine.top.cursor >= 1000)
        // The initial letter shows during the spin, then the position returns.
        #expect(fast.screen[0].hasSuffix("[S]"))
        fast.wait(ms: 1000)
        #expect(!fast.screen[0].contains("["))
    }

    @Test func accelerationOffKeepsOneRowPerStep() {
        var settings = Settings()
        settings.acceleration = .off
        var h = onSongs(Fixtures.numbered(2000), settings: settings)
        h.spin(48, intervalMS: 25)
        #expect(h.engine.top.cursor == 48)
    }

    @Test func cursorStaysOnItsItemWhenTheLibraryChanges() {
        let library = Fixtures.sample()
        var h = EngineHarness(library: library, geometry: Self.g20x4)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        h.turn(10)
        #expect(h.screen.contains(">Daft Punk         ›"))
        // Two new artists sort before Daft Punk (new tracks at the end keep the old ids).
        var tracks = Fixtures.sampleTracks()
        tracks.append(FixtureTrack(title: "New", artist: "Aardvark", album: "New"))
        tracks.append(FixtureTrack(title: "New 2", artist: "Babel", album: "New 2"))
        library.replaceTracks(tracks)
        h.send(.libraryChanged(at: h.now))
        #expect(h.screen.contains(">Daft Punk         ›"))
        #expect(h.screen[0] == "Artists        13/47")
    }

    @Test func cursorStaysInRangeWhenItsItemGoes() {
        let library = Fixtures.numbered(50)
        var h = onSongs(library)
        h.turn(40)
        library.replaceTracks(
            Array(Fixtures.sampleTracks().prefix(0))
                + (1...10).map {
                    FixtureTrack(title: "Song \($0)", artist: "X", album: "Y")
                })
        h.send(.libraryChanged(at: h.now))
        #expect(h.engine.top.cursor == 9)
        #expect(h.screen[0] == "Songs          10/10")
    }

    @Test func previousRestartsAfterThreeSecondsElseGoesBack() {
        var h = onSongs()
        h.turn(2)
        h.click(.select)
        h.report(.position(ms: 3500))
        h.click(.previous)
        #expect(h.playbackCommands.last == .seek(ms: 0))
        h.report(.position(ms: 1000))
        h.click(.previous)
        #expect(h.playbackCommands.last == .play(index: 1))
        h.click(.next)
        #expect(h.playbackCommands.last == .play(index: 2))
    }

    @Test func endOfQueueFollowsRepeat() {
        var h = onSongs()
        h.turn(269)
        h.click(.select)
        h.report(.started(index: 269))
        h.report(.finished(index: 269))
        // Nothing after the last song and no repeat: Now Playing goes away.
        #expect(h.engine.top.destination != .nowPlaying)
        #expect(!h.engine.player.hasCurrent)
        var settings = Settings()
        settings.repeatMode = .all
        h.send(.settings(settings, at: h.now))
        h.click(.select)
        h.report(.finished(index: 269))
        #expect(h.playbackCommands.last == .play(index: 0))
        settings.repeatMode = .one
        h.send(.settings(settings, at: h.now))
        h.report(.finished(index: 0))
        #expect(h.playbackCommands.last == .play(index: 0))
    }

    @Test func holdingNextSeeksFasterTheLongerItIsHeld() {
        var h = onSongs()
        h.click(.select)
        h.hold(.next, ms: 4000)
        let seeks = h.playbackCommands.compactMap { if case .seek(let ms) = $0 { ms } else { nil } }
        #expect(seeks.count >= 10)
        let jumps = zip(seeks.dropFirst(), seeks).map { $0 - $1 }
        #expect(jumps.first == 1000)
        #expect(jumps.last == 10_000)
    }

    @Test func holdSwitchIgnoresEverythingButItsOwnGesture() {
        var h = onSongs()
        h.hold(.playPause, ms: 700)
        #expect(h.engine.input.locked)
        let before = h.engine.top
        h.turn(3)
        h.click(.menu)
        #expect(h.engine.top == before)
        #expect(h.screen[0].hasPrefix("Locked"))
        h.wait(ms: 2100)
        #expect(h.screen[0].hasPrefix("Songs") && h.screen[0].contains("⚿"))
        h.hold(.playPause, ms: 700)
        #expect(!h.engine.input.locked)
        h.turn(1)
        #expect(h.engine.top.cursor == 1)
    }

    @Test func playNextInsertsAfterTheCurrentTrack() {
        var h = onSongs()
        h.click(.select)
        h.click(.menu)
        h.turn(1)
        h.hold(.select)
        #expect(h.screen[1] == ">Play Next          ")
        h.click(.select)
        #expect(h.playbackCommands.last == .insert([h.engine.player.queue[1]], at: 1))
        #expect(h.engine.player.queue.count == 271)
        #expect(h.engine.top.destination != .nowPlaying)
    }

    @Test func shuffleSongsQueuesTheWholeLibraryShuffled() throws {
        let library = Fixtures.sample()
        var h = EngineHarness(library: library, geometry: Self.g20x4)
        h.turn(2)
        h.click(.select)
        let queue = h.engine.player.queue
        let songs = try library.trackIDs(of: .songs)
        #expect(queue.sorted() == songs.sorted())
        #expect(queue != songs)
        #expect(h.engine.top.destination == .nowPlaying)
    }

    @Test func turningShuffleOffRestoresListOrderKeepingTheTrack() throws {
        var h = onSongs()
        h.turn(4)
        h.click(.select)
        let ordered = h.engine.player.queue
        h.click(.select)
        h.click(.select)
        h.turn(1)
        #expect(h.engine.settings.shuffle == .songs)
        #expect(h.engine.player.queue != ordered && h.engine.player.currentID == ordered[4])
        h.turn(-1)
        #expect(h.engine.player.queue == ordered && h.engine.player.current == 4)
        #expect(h.effects.contains(.persist(h.engine.settings)))
    }

    @Test func volumeStopsAtTheLimitAndIsPersistedWhenTheBarGoes() {
        var settings = Settings()
        settings.volumeLimit = 60
        settings.volume = 56
        var h = onSongs(settings: settings)
        h.click(.select)
        h.turn(5)
        #expect(h.engine.settings.volume == 60)
        #expect(!h.effects.contains { if case .persist = $0 { true } else { false } })
        h.wait(ms: 2100)
        #expect(h.lastEffects.contains(.persist(h.engine.settings)) || h.effects.contains(.persist(h.engine.settings)))
    }

    @Test func backlightGoesOffAfterItsTimerAndInputWakesIt() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4)
        h.wait(ms: 10_100)
        #expect(h.effects.contains(.backlight(on: false)))
        h.turn(1)
        #expect(h.effects.last(where: { if case .backlight = $0 { true } else { false } }) == .backlight(on: true))
    }

    @Test func mainMenuItemsCanBeHidden() {
        var settings = Settings()
        settings.showPodcasts = false
        settings.showShuffleSongs = false
        let h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4, settings: settings)
        #expect(
            h.screen == [
                "ClickWheel       1/3", ">Music             ›", " Settings          ›", " Extras            ›",
            ])
    }

    @Test func rescanAndResetAreEffects() {
        var settings = Settings()
        settings.repeatMode = .all
        var h = EngineHarness(library: Fixtures.sample(), geometry: Self.g20x4, settings: settings)
        h.turn(3)
        h.click(.select)
        h.turn(10)
        h.click(.select)
        #expect(h.lastEffects.contains(.rescanLibrary))
        h.turn(1)
        h.click(.select)
        h.turn(1)
        h.click(.select)
        #expect(h.engine.settings.repeatMode == .off)
        #expect(h.effects.contains(.persist(h.engine.settings)))
        #expect(h.screen[0].hasPrefix("Settings"))
    }
}

@Suite struct SearchTests {
    @Test func wheelPicksLettersSelectAddsPreviousDeletesOKGoesToResults() throws {
        var h = EngineHarness(library: Fixtures.sample(), geometry: DisplayGeometry(columns: 16, rows: 2))
        var walk = WalkRecord()
        h.click(.select)
        h.turn(7)
        h.click(.select)
        walk.snap("Search", h.engine.frame)
        h.turn(-2)
        walk.snap("wheel back 2: wraps to the space", h.engine.frame)
        h.turn(2 + 15)
        h.click(.select)
        h.turn(2)
        h.click(.select)
        h.click(.select)
        walk.snap("P, R, R: no results", h.engine.frame)
        h.click(.previous)
        h.click(.previous)
        h.turn(-3)
        h.click(.select)
        walk.snap("previous twice deletes R R; PO", h.engine.frame)
        h.turn(23)
        walk.snap("OK", h.engine.frame)
        h.click(.select)
        walk.snap("into the results: Portishead first", h.engine.frame)
        h.turn(1)
        h.click(.select)
        walk.snap("the second result, an album, opens", h.engine.frame)
        h.turn(1)
        h.click(.select)
        #expect(h.engine.top.destination == .nowPlaying)
        Golden.check(walk.text, name: "walk-search-16x2.txt")
    }
}

@Suite struct LetterJumpTests {
    /// 26 letters × 60 songs: "Aa 001" … "Zz 060".
    static func alphabetLibrary() -> InMemoryLibrary {
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map { String($0) }
        return InMemoryLibrary(
            tracks: letters.flatMap { l in
                (1...60).map {
                    FixtureTrack(title: "\(l)\(l.lowercased()) \($0 < 10 ? "0" : "")\($0)", artist: l, album: l)
                }
            })
    }

    func onSongs() -> EngineHarness {
        var h = EngineHarness(library: Self.alphabetLibrary(), geometry: DisplayGeometry(columns: 20, rows: 4))
        h.click(.select)
        h.turn(3)
        h.click(.select)
        return h
    }

    @Test func fastSpinLandsOnTheFirstRowOfEachLetter() {
        var h = onSongs()
        var landed: [Int] = []
        for _ in 0..<40 {
            h.spin(1, intervalMS: 12)
            landed.append(h.engine.top.cursor)
        }
        // Once the spin is fast enough every step starts a new letter block.
        let jumps = landed.filter { $0 % 60 == 0 && $0 > 0 }
        #expect(jumps.count >= 5)
        #expect(Set(jumps).count == jumps.count)
        #expect(h.screen[0].hasSuffix("[\(h.screen[1].dropFirst().first!)]"))
    }

    @Test func fastSpinBackGoesToTheStartOfTheLetterThenThePreviousOne() {
        var h = onSongs()
        h.turn(130)
        #expect(h.engine.top.cursor == 130)
        h.wait(ms: 400)
        var landed: [Int] = []
        for _ in 0..<40 {
            h.spin(-1, intervalMS: 12)
            landed.append(h.engine.top.cursor)
        }
        #expect(landed.contains(120) && landed.contains(60))
        #expect(h.engine.top.cursor == 0)
        #expect(h.screen[1] == ">Aa 01              ")
    }
}

@Suite struct AboutTests {
    @Test func aboutCountsFollowLibraryChanges() {
        let library = Fixtures.numbered(12)
        var h = EngineHarness(library: library, geometry: DisplayGeometry(columns: 20, rows: 4))
        h.turn(3)
        h.click(.select)
        h.click(.select)
        #expect(h.screen[1] == ">Songs            12")
        library.replaceTracks((1...30).map { FixtureTrack(title: "T\($0)", artist: "A", album: "B") })
        h.send(.libraryChanged(at: h.now))
        #expect(h.screen[1] == ">Songs            30")
    }
}

@Suite struct MainMenuTests {
    @Test func holdMenuGoesToTheMainMenuFromAnywhere() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: DisplayGeometry(columns: 20, rows: 4))
        h.click(.select)
        h.turn(1)
        h.click(.select)
        h.turn(5)
        h.click(.select)
        #expect(h.engine.stack.count == 4)
        h.hold(.menu)
        #expect(h.engine.stack.count == 1)
        #expect(h.screen[1] == ">Music             ›")
    }
}

@Suite struct ContextMenuTests {
    @Test func albumRowsOfferBrowseArtistAndSongRowsBoth() {
        var h = EngineHarness(library: Fixtures.sample(), geometry: DisplayGeometry(columns: 20, rows: 4))
        h.click(.select)
        h.turn(2)
        h.click(.select)
        h.hold(.select)
        #expect(h.engine.top.destination.isContext)
        let albumMenu = h.screen
        #expect(albumMenu[1] == ">Play Next          ")
        #expect(albumMenu[3] == " Browse Artist     ›")
        h.turn(2)
        h.click(.select)
        // Browse Artist opens the artist's albums, "All Albums" on top.
        #expect(h.screen[1] == ">All Albums        ›")
        h.click(.select)
        h.hold(.select)
        h.turn(3)
        #expect(h.screen.contains(">Browse Artist     ›"))
        #expect(h.screen.contains(" Browse Album      ›"))
    }
}

extension Destination {
    var isContext: Bool {
        if case .context = self { true } else { false }
    }
}
