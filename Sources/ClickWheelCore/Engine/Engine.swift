/// The one serial owner of the UI and playback model: events in, effects out.
///
/// `handle(_:)` is the only way the model changes. It never performs I/O, sleeps or reads a clock:
/// time comes with the events, the library is read through the `LibraryReading` port, and everything
/// else (frames to draw, commands for playback, clicks, settings to store) is returned as effects.
///
/// Its state is grouped into the parts it is made of: the screen (`ScreenState`), the wheel and buttons
/// (`InputState`), the play order (`PlayOrder`), what is read once from the library (`LibraryCaches`),
/// and the features that own their state (resume, sleep timer, alarms, wheel setup, Speakers).
///
/// Thread rules: a value owned by one task or thread (the engine loop); not shared.
public struct Engine: Sendable {
    public let library: any LibraryReading
    public let configuration: EngineConfiguration
    public internal(set) var settings: Settings
    public internal(set) var player = Player()
    /// The menu stack; the last page is on screen.
    public internal(set) var stack: [Page] = [Page(.menu(.main))]
    /// The last frame emitted.
    public internal(set) var frame: Frame?
    /// False while nothing can see frames (the service without a display, before any client watches the
    /// screen): events are handled without rendering, `frame` stays nil and no animation asks for ticks.
    /// The first event after it turns true renders the screen as it is then.
    public var rendersFrames: Bool {
        get { screen.rendersFrames }
        set {
            screen.rendersFrames = newValue
            guard !newValue else { return }
            frame = nil
            screen.frameChangesAt = nil
        }
    }
    /// The rows of the lists on screen, paged in from the library.
    var rows = RowCache()
    /// What the screen shows besides the stack: Now Playing's mode, timed notices, the backlight.
    public internal(set) var screen: ScreenState
    /// The wheel's acceleration, the buttons' gestures, the hold switch.
    public internal(set) var input: InputState
    /// Shuffle's saved order, On-The-Go, the seeded shuffle, the current track's details.
    public internal(set) var queue: PlayOrder
    /// What is read once per library version or track.
    var caches = LibraryCaches()
    /// The time of the latest event.
    var now = Timestamp.zero
    /// Checkpoints, restore and play counts (`Engine+Resume`, `Engine+PlayCounts`).
    var resume = ResumeTracker()
    /// Settings → Sleep Timer (`Engine+Sleep`); nil: off.
    public internal(set) var sleepTimer: SleepTimer?
    /// Settings → Wheel's calibration, on screen while not nil (`Engine+WheelSetup`).
    public internal(set) var wheelSetup: WheelSetup?
    /// How long the player has played since the start (MPD's `playtime`), brought up to date after
    /// every event and control request.
    public internal(set) var playedTime = PlayedTime()
    /// The wall clock, Extras → Clock and the alarms' schedule and ringing (`Engine+Alarms`).
    public internal(set) var alarmClock = AlarmClock()
    /// Main menu → Speakers (`Engine+Speakers`); nil until the service sends it (no Snapcast configured).
    public internal(set) var speakers: Speakers?

    public init(library: any LibraryReading, configuration: EngineConfiguration, settings: Settings = Settings()) {
        self.library = library
        self.configuration = configuration
        self.settings = settings
        screen = ScreenState(renderer: LCDRenderer(geometry: configuration.geometry, charset: configuration.charset))
        input = InputState(
            gestures: ButtonGestures(holdMS: configuration.holdMS),
            accelerator: WheelAccelerator(mode: settings.acceleration, degreesPerStep: configuration.degreesPerStep))
        queue = PlayOrder(random: SplitMix64(seed: configuration.shuffleSeed))
    }

    /// The page on screen.
    public var top: Page { stack[stack.count - 1] }

    /// Handles one event and returns the effects to carry out, a render last when the screen changed.
    public mutating func handle(_ event: Event) -> [Effect] {
        now = max(now, event.time)
        if caches.marksStale {
            // The play state the last event's effects stored is in the library now: rows read again.
            caches.marksStale = false
            rows.removeAll()
        }
        var effects: [Effect] = []
        switch event {
        case .input(let input):
            effects += wake()
            effects += handleInput(input)
        case .tick:
            effects += perform(input.gestures.tick(at: now))
            effects += expireTimers()
            effects += wheelSetupTick()
            effects += alarmTick()
        case .playback(let report, _):
            effects += handlePlayback(report)
        case .libraryChanged:
            libraryChanged()
        case .scanning(let count, _):
            caches.scanCount = count
        case .settings(let new, _):
            effects += apply(settings: new, persist: false)
        case .wallClock:
            break
        case .clock(let clock, _):
            effects += clockSample(clock)
        case .restore(let state, _):
            effects += restore(state)
        case .shutdown:
            screen.goodbye = true
        case .rawInput(let raw, let device):
            effects += wake()
            effects += wheelSetupRaw(raw, from: device)
        case .wheelSaved(let outcome, _):
            wheelSetupSaved(outcome)
        case .speakers(let new, _):
            speakersChanged(new)
        case .podcastDownloads(let downloads, _):
            podcastDownloadsChanged(downloads)
        }
        effects = afterEvent(event, effects)
        if effects.contains(where: \.changesListMarks) { caches.marksStale = true }
        playedTime.update(playing: player.status == .playing, at: now)
        if let frame = renderIfChanged() { effects.append(.render(frame)) }
        return effects
    }

    /// The frame for the current model at the current time (without remembering it).
    public mutating func currentFrame() -> Frame {
        screen.renderer.render(view(), now: now)
    }

    mutating func renderIfChanged() -> Frame? {
        guard rendersFrames else { return nil }
        let (new, changesAt) = screen.renderer.renderTimed(view(), now: now)
        screen.frameChangesAt = changesAt
        guard new != frame else { return nil }
        frame = new
        return new
    }

    /// Switches the backlight on after input in the dark (and when an alarm rings).
    mutating func wake() -> [Effect] {
        input.lastInput = now
        guard !screen.backlightOn else { return [] }
        screen.backlightOn = true
        return [.backlight(on: true)]
    }

    private mutating func expireTimers() -> [Effect] {
        var effects: [Effect] = []
        if let until = screen.volumeShownUntil, now >= until {
            screen.volumeShownUntil = nil
            effects.append(.persist(settings))
        }
        if let until = screen.letterUntil, now >= until { screen.letterUntil = nil }
        if let until = screen.lockNoticeUntil, now >= until { screen.lockNoticeUntil = nil }
        effects += expireSleep()
        if screen.nowPlayingMode != .normal && now.milliseconds(since: input.lastInput) >= Self.modeTimeoutMS {
            screen.nowPlayingMode = .normal
        }
        if screen.backlightOn && settings.backlightSeconds > 0 && alarmClock.ringing == nil
            && now.milliseconds(since: input.lastInput) >= Int64(settings.backlightSeconds) * 1000
        {
            screen.backlightOn = false
            effects.append(.backlight(on: false))
        }
        return effects
    }

    /// How long a Now Playing mode (scrubbing, settings, rating) lasts without input, milliseconds.
    static let modeTimeoutMS: Int64 = 6000
    /// How long the volume bar stays after the last wheel step, milliseconds.
    static let volumeOverlayMS: Int64 = 2000

    /// Replaces the settings; emits `persist` unless they came from outside.
    mutating func apply(settings new: Settings, persist: Bool) -> [Effect] {
        let old = settings
        settings = new
        input.accelerator.mode = new.acceleration
        var effects: [Effect] = []
        if new.volume != old.volume { effects.append(.playback(.volume(new.volume))) }
        if new.spokenWordSpeed != old.spokenWordSpeed {
            effects.append(.playback(.spokenWordSpeed(percent: new.spokenWordSpeed)))
        }
        if new.crossfadeSeconds != old.crossfadeSeconds {
            effects.append(.playback(.crossfade(seconds: new.crossfadeSeconds)))
        }
        if new.shuffle != old.shuffle { effects += reshuffle() }
        if new.shuffle != old.shuffle || new.repeatMode != old.repeatMode || new.replayGainMode != old.replayGainMode {
            effects.append(.notify(.options))
        }
        if persist { effects.append(.persist(new)) }
        // A main-menu row may have gone: keep the cursor in range.
        if case .menu = top.destination { clampCursor() }
        return effects
    }
}
