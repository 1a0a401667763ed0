public import ClickWheelCore
import ControlServer
public import Dispatch
import Devices
import Foundation
import Library
public import Logging
import MPDProtocol
public import Playback
import Synchronization

/// The one serial owner of the engine: every event (keys, ticks, playback reports, scan progress,
/// control requests) is handed to `Engine.handle` on `queue`, and the effects are carried out there,
/// in order: frames to the display, commands to the playback shell, writes to the library's stores,
/// idle notifications to the control server.
///
/// Thread rules: `post`, `send`, `playerReported` and the `PlayerStateSource` methods may be called
/// from any thread but the loop's own; everything else runs on `queue`, which each entry point
/// asserts. `@unchecked Sendable`: every mutable field is touched only on `queue`; the published
/// snapshot, the one thing read elsewhere, is behind a `Mutex`.
public final class EngineLoop: @unchecked Sendable {
    /// The serial queue the engine and everything it owns run on.
    public let queue = DispatchQueue(label: "clickwheel.engine")
    private var engine: Engine
    private let display: (any TextDisplay)?
    private let stores: EngineStores
    let logger: Logger
    private let playback: any PlaybackPort
    private var ticker: (any DispatchSourceTimer)?
    /// When the ticker is set to fire (`Engine.nextTick`); nil: not set.
    private var tickAt: Timestamp?
    /// When the engine last heard the wall time (`Event.wallClock`: at start, then with the first event
    /// a minute or more later, so a clock set by NTP after boot reaches resume stamps).
    private var lastWallClock = Timestamp.zero
    /// After `shutdown`: events are no longer handled (the display is closed, the audio stopping).
    private var stopped = false
    /// The last update job handed out, and the one running (MPD's `updating_db`).
    private var updateJobs = 0
    private var runningJob: Int?
    /// What `status` and friends read: the engine's playback state as of its last change, published
    /// on the queue after every event, control request and update job change, read from any thread
    /// without waiting for the queue (the control server answers `status` on its event loop).
    private let published = Mutex<(snapshot: PlayerSnapshot, at: Timestamp)>((PlayerSnapshot(), .zero))
    /// `snapshotStamp()`, read by the control server before every `status` poll without a lock: the
    /// publication count shifted left by one, the low bit set while playing. Written on the queue only.
    private let publications = Atomic<UInt64>(0)
    /// Set once a control client asks to watch the screen (`idle screen`, `watchScreen`).
    private let screenWatched = Atomic<Bool>(false)
    private var publicationCount: UInt64 = 0
    /// What the loop calls out to (`EngineWiring`), fixed when it is made.
    let rescan: @Sendable () -> Void
    let refreshPodcasts: @Sendable () -> Void
    let listener: IdleListeners
    let speakerCommands: (@Sendable (SpeakerCommand) -> Void)?
    let wheelCalibration: WheelCalibrationLink?
    let clockSynced: @Sendable () -> Bool
    let unixMS: @Sendable () -> Int64
    /// Settings → Shut Down / Restart run these (`/bin/sh -c`); a configuration reload changes them, on
    /// the queue.
    var powerCommands: [PowerAction: String]

    public init(
        engine: Engine, display: (any TextDisplay)?, stores: EngineStores, playback: any PlaybackPort,
        wiring: EngineWiring = EngineWiring(), logger: Logger
    ) {
        rescan = wiring.rescan
        refreshPodcasts = wiring.refreshPodcasts
        listener = wiring.changes
        speakerCommands = wiring.speakerCommands
        wheelCalibration = wiring.wheelCalibration
        clockSynced = wiring.clockSynced
        unixMS = wiring.unixMS
        powerCommands = wiring.powerCommands
        self.engine = engine
        // Without a display nobody sees frames until a client watches the screen (`watchScreen`): the
        // Now Playing bar is not drawn for nothing once a second. `screen` renders what it shows itself.
        self.engine.rendersFrames = display != nil
        self.display = display
        self.stores = stores
        self.playback = playback
        self.logger = logger
        playback.perform(.volume(engine.settings.volume)) { _ in nil }
        playback.setSoundCheck(engine.settings.soundCheck, album: engine.settings.usesAlbumGain)
        playback.perform(.spokenWordSpeed(percent: engine.settings.spokenWordSpeed)) { _ in nil }
        playback.perform(.crossfade(seconds: engine.settings.crossfadeSeconds)) { _ in nil }
        publish()
    }

    /// Starts the tick timer (one-shot, set after every event for the engine's next tick: a marquee step,
    /// a hold, an overlay's end; not set while nothing moves with time, see `Engine.nextTick`) and draws
    /// the first frame.
    public func start() {
        queue.async { [self] in
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { [weak self] in
                guard let self else { return }
                tickAt = nil
                handle(.tick(MonotonicClock.now()))
            }
            t.resume()
            ticker = t
            handle(.tick(MonotonicClock.now()))
        }
        stores.scrobbles?.start()  // what waited from the last run
    }

    /// Hands `event` to the engine on the loop's queue, later.
    public func post(_ event: Event) {
        queue.async { [self] in handle(event) }
    }

    /// Hands `event` to the engine and returns when its effects are carried out.
    public func send(_ event: Event) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync { handle(event) }
    }

    /// A control client waits for frames (`idle screen`): from now on the engine renders, as with a
    /// display; a tick at once renders the screen as it is, and the client hears `screen`.
    public func watchScreen() {
        guard screenWatched.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        queue.async { [self] in
            guard !engine.rendersFrames else { return }
            engine.rendersFrames = true
            handle(.tick(MonotonicClock.now()))
        }
    }

    /// A report of the audio player, into the queue: what it means for the engine (nothing, when stale).
    public func playerReported(_ event: PlayerEvent) {
        queue.async { [self] in
            if let report = playback.translate(event) { handle(.playback(report, at: MonotonicClock.now())) }
        }
    }

    /// Stops the timer, writes a last resume checkpoint and shows Goodbye (with `goodbye`: an LCD keeps
    /// it; a terminal that is being handed back does not want it); events after this are dropped.
    public func shutdown(goodbye: Bool = true) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            ticker?.cancel()
            ticker = nil
            carryOut(engine.checkpointEffects())
            if goodbye { handle(.shutdown(at: MonotonicClock.now())) }
            stopped = true
        }
        stores.scrobbles?.stop()  // after the last listens are queued; what is not written yet waits in the database
    }

    /// Closes the display, on the queue (where every frame was drawn), once `shutdown` stopped the loop.
    public func closeDisplay() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync { display?.close() }
    }

    /// A scan ended: the update job (if one was asked for) is done. Idle clients hear `update`, and
    /// `database` only when the library changed (as from MPD).
    public func scanFinished(libraryChanged: Bool) {
        queue.async { [self] in
            runningJob = nil
            publish()
            listener(libraryChanged ? [.database, .update] : [.update])
        }
    }

    func handle(_ event: Event) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !stopped else { return }
        let now = MonotonicClock.now()
        // With every tick while the engine wants it (an alarm set, the Clock on screen: it asks for a tick
        // at each minute, so a clock stepped by NTP or DST is seen within the minute), and otherwise at
        // most once a minute (a clock set by NTP after boot reaches resume stamps).
        var isTick = false
        if case .tick = event { isTick = engine.wantsWallClock }
        if isTick || lastWallClock == .zero || now.milliseconds(since: lastWallClock) >= 60_000 {
            lastWallClock = now
            carryOut(engine.handle(.clock(wallClock(), at: now)))
        }
        let effects = engine.handle(event)
        publish()  // before the effects: an idle client woken by them reads the new state
        carryOut(effects)
        updateTicker()
    }

    /// The wall clock now, with the system time zone's offset at this moment and the sync status.
    private func wallClock() -> WallClock {
        let unix = unixMS()
        let zone = TimeZone.current
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(unix) / 1000))
        return WallClock(unixMS: unix, utcOffsetSeconds: offset, synced: clockSynced(), zone: zone.identifier)
    }

    /// Sets the tick timer for the engine's next tick (a time already past: at once), or unsets it.
    private func updateTicker() {
        guard let ticker else { return }
        let next = engine.nextTick()
        guard next != tickAt else { return }
        tickAt = next
        guard let next else { return ticker.schedule(deadline: .distantFuture) }
        let delay = max(1000, next.microseconds - MonotonicClock.now().microseconds)
        ticker.schedule(deadline: .now() + .microseconds(Int(delay)), repeating: .never, leeway: .milliseconds(5))
    }

    /// Publishes the engine's playback state for `snapshot()` (on the queue, after every change and
    /// before its effects: a listener's idle client woken by them reads the new state).
    private func publish() {
        var s = PlayerSnapshot(engine)
        s.updatingJob = runningJob
        let now = MonotonicClock.now()
        publicationCount += 1
        let stamp = publicationCount << 1 | (s.status == .playing ? 1 : 0)
        // Stored with the state, so a reader that saw this stamp and then takes the lock sees this state or a
        // later one.
        published.withLock {
            $0 = (s, now)
            publications.store(stamp, ordering: .releasing)
        }
    }

    /// Raw input events from the reader threads, into the queue (Settings → Wheel).
    private var rawPost: @Sendable (String, RawInputEvent) -> Void {
        { [weak self] device, raw in self?.post(.rawInput(raw, device: device)) }
    }

    private func carryOut(_ effects: [Effect]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for effect in effects {
            switch effect {
            case .render(let frame):
                do { try display?.show(frame) } catch { logger.error("display: \(error)") }
                listener(.screen)
            case .playback(let command):
                playback.perform(command) { engine.entry(after: $0) }
            case .persist(let settings):
                playback.setSoundCheck(settings.soundCheck, album: settings.usesAlbumGain)
                store("cannot save settings") { try stores.settings?.save(settings) }
            case .rate(let track, let rating):
                store("cannot store rating") { try stores.playState?.rate(track, rating: rating) }
                listeningChanged()
            case .backlight(let on):
                try? display?.setBacklight(on)
            case .rescanLibrary:
                rescan()
            case .refreshPodcasts:
                refreshPodcasts()
            case .notify(let subsystem):
                listener(MPDIdleSubsystems(subsystem))
            case .click(let level):
                if level != .off { playback.click(volume: level == .loud ? 80 : 35) }
            case .checkpoint(let state):
                store("cannot save the resume checkpoint") { try stores.resume?.save(state) }
            case .played(let track, let ms):
                // With a checkpoint of now, in one transaction: the position stored for resume is past the
                // point where the play counted, so a kill before the next regular checkpoint cannot bring
                // the track back before that point to be counted a second time.
                if let resume = stores.resume, let playState = stores.playState {
                    let state = engine.resumeState
                    store("cannot count a play") { try resume.save(state, alongWith: playState.countPlay(track)) }
                } else {
                    store("cannot count a play") { try stores.playState?.played(track) }
                }
                stores.scrobbles?.record(track, .listened, positionMS: ms)
                listeningChanged()
            case .skipped(let track, let ms):
                store("cannot count a skip") { try stores.playState?.skipped(track) }
                stores.scrobbles?.record(track, .skipped, positionMS: ms)
                listeningChanged()
            case .bookmark(let track, let ms):
                store("cannot store a bookmark") { try stores.playState?.bookmark(track, ms: ms) }
            case .episodeFinished(let track):
                store("cannot mark an episode") { try stores.playState?.episodeFinished(track) }
            case .power(let action):
                runPowerCommand(action)
            case .rawInput(let on):
                wheelCalibration?.forwardRawEvents(to: on ? rawPost : nil)
            case .speakers(let command):
                speakerCommands?(command)
            case .log(let line):
                logger.notice("\(line)")
            case .alarmTone(let volume):
                playback.click(volume: volume)
            case .saveWheel(let result):
                // Answered through the queue, so the frames of this batch are drawn first.
                post(.wheelSaved(wheelCalibration?.save(result) ?? .notWritten, at: MonotonicClock.now()))
            }
        }
    }

    /// The snapshot as last published, and when.
    func publishedState() -> (snapshot: PlayerSnapshot, at: Timestamp) { published.withLock { $0 } }

    /// Changes with every publication; nil while playing (the elapsed time runs on by itself).
    public func snapshotStamp() -> UInt64? {
        let stamp = publications.load(ordering: .acquiring)
        return stamp & 1 == 0 ? stamp : nil
    }

    /// MPD's `update` on the queue: a new job, which starts a scan unless one runs.
    func startUpdateJob() -> Int {
        dispatchPrecondition(condition: .onQueue(queue))
        updateJobs += 1
        if runningJob == nil {
            runningJob = updateJobs
            publish()
            rescan()
            listener(.update)
        }
        return runningJob ?? updateJobs
    }

    /// A control request on the queue, its effects carried out before the answer.
    func runControl(_ request: ControlRequest) -> Result<[Int], ControlError> {
        dispatchPrecondition(condition: .onQueue(queue))
        let outcome = engine.control(request, at: MonotonicClock.now())
        publish()
        carryOut(outcome.effects)
        updateTicker()
        return outcome.result
    }

    /// What the screen shows now (the `screen` extension).
    func screenNow() -> ScreenSnapshot {
        dispatchPrecondition(condition: .onQueue(queue))
        let lines = engine.frame?.lines ?? engine.currentFrame().lines
        let p = engine.position()
        return ScreenSnapshot(
            rows: lines, title: p.title, cursor: p.cursor, count: p.count, depth: p.depth, menu: p.menu)
    }

    /// A play, skip or rating was stored: the smart playlists on screen are read again (after this
    /// batch), and MPD clients hear that stickers (`playCount`, `rating`, …) and the smart stored
    /// playlists changed.
    private func listeningChanged() {
        guard stores.playState != nil else { return }
        post(.libraryChanged(at: MonotonicClock.now()))
        listener([.sticker, .storedPlaylist])
    }

    /// A write to the library database; a failure is one log line and the service goes on.
    private func store(_ what: String, _ write: () throws -> Void) {
        do { try write() } catch { logger.error("\(what): \(error)") }
    }
}
