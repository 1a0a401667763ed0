import ClickWheelCore
import ControlServer
import Dispatch
import Devices
import Foundation
import GRDB
import Library
import Logging
import MPDProtocol
import Playback
import Synchronization

/// The one serial owner of the engine: every event (keys, ticks, playback reports, scan progress) is
/// posted to its queue, handed to `Engine.handle`, and the effects are carried out there.
///
/// Thread rules: `post` from any thread; everything else runs on `queue`.
final class ServiceLoop: @unchecked Sendable {
    let queue = DispatchQueue(label: "clickwheel.engine")
    private var engine: Engine
    private let display: (any TextDisplay)?
    private let settingsStore: SettingsStore
    private let resumeStore: ResumeStore
    private let playState: PlayStateStore
    private let logger: Logger
    private var playback: AudioPlayback!
    private let player: AudioPlayer
    private var ticker: (any DispatchSourceTimer)?
    /// When the ticker is set to fire (`Engine.nextTick`); nil: not set.
    private var tickAt: Timestamp?
    /// When the engine last heard the wall time (`Event.wallClock`: at start, then with the first event
    /// a minute or more later, so a clock set by NTP after boot reaches resume stamps).
    private var lastWallClock = Timestamp.zero
    private let rescan: () -> Void
    /// The last update job handed out, and the one running (MPD's `updating_db`).
    private var updateJobs = 0
    private var runningJob: Int?
    /// What `status` and friends read: the engine's playback state as of its last change, published
    /// on the queue after every event, control request and update job change, read from any thread
    /// without waiting for the queue (the control server answers `status` on its event loop).
    private let published = Mutex<(snapshot: PlayerSnapshot, at: Timestamp)>((PlayerSnapshot(), .zero))
    /// Who hears about changes (the control server's idle clients); set before `start`.
    var listener: (@Sendable (MPDIdleSubsystems) -> Void)?
    /// Settings → Shut Down / Restart run these (`/bin/sh -c`); set before `start`, or on the queue.
    var powerCommands: [PowerAction: String] = [:]
    /// Settings → Wheel's raw input and saving; set before `start`, or on the queue (nil: nothing to
    /// read, and a Save is answered "not written").
    var wheelCalibration: WheelCalibrationLink?

    init(
        engine: Engine, display: (any TextDisplay)?, settings: SettingsStore, resume: ResumeStore,
        playState: PlayStateStore, player: AudioPlayer, musicFolder: String, logger: Logger,
        rescan: @escaping () -> Void
    ) {
        self.engine = engine
        self.display = display
        self.settingsStore = settings
        self.resumeStore = resume
        self.playState = playState
        self.player = player
        self.logger = logger
        self.rescan = rescan
        playback = AudioPlayback(
            player: player, library: engine.library, musicFolder: musicFolder, logger: logger
        ) { [unowned self] index, _ in
            // Runs on the loop's queue, inside `handle`: what follows entry `index`.
            self.engine.entry(after: index)
        }
        player.setVolume(engine.settings.volume)
        player.setSoundCheck(engine.settings.soundCheck)
        publish()
        let reports = player.reports
        Task.detached { [weak self] in
            for await report in reports {
                guard let self else { return }
                self.queue.async { self.playerReported(report) }
            }
        }
    }

    private func playerReported(_ report: PlayerEvent) {
        if let r = playback.handle(report) { handle(.playback(r, at: MonotonicClock.now())) }
    }

    /// Starts the tick timer (one-shot, set after every event for the engine's next tick: a marquee step,
    /// a hold, an overlay's end; not set while nothing moves with time, see `Engine.nextTick`) and draws
    /// the first frame.
    func start() {
        queue.async { [self] in
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { [unowned self] in
                tickAt = nil
                handle(.tick(MonotonicClock.now()))
            }
            t.resume()
            ticker = t
            handle(.tick(MonotonicClock.now()))
        }
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

    /// Raw input events from the reader threads, into the queue (Settings → Wheel).
    private var rawPost: @Sendable (String, RawInputEvent) -> Void {
        { [weak self] device, raw in self?.post(.rawInput(raw, device: device)) }
    }

    func post(_ event: Event) {
        queue.async { [self] in handle(event) }
    }

    /// Stops the timer, writes a last resume checkpoint, shows Goodbye (with `goodbye`: an LCD keeps it;
    /// a terminal that is being handed back does not want it) and closes the display (on the loop's
    /// queue, waiting for it), then stops the audio.
    func shutdown(goodbye: Bool = true) {
        queue.sync {
            ticker?.cancel()
            ticker = nil
            carryOut(engine.checkpointEffects())
            if goodbye { handle(.shutdown(at: MonotonicClock.now())) }
            display?.close()
        }
        player.shutdown()  // stops the audio thread after the current command; the stream is closed
    }

    /// A scan ended: the update job (if one was asked for) is done. Idle clients hear `update`, and
    /// `database` only when the library changed (as from MPD).
    func scanFinished(libraryChanged: Bool) {
        queue.async { [self] in
            runningJob = nil
            publish()
            listener?(libraryChanged ? [.database, .update] : [.update])
        }
    }

    private func handle(_ event: Event) {
        let now = MonotonicClock.now()
        if lastWallClock == .zero || now.milliseconds(since: lastWallClock) >= 60_000 {
            lastWallClock = now
            carryOut(engine.handle(.wallClock(unixMS: ResumeStore.nowMS(), at: now)))
        }
        let effects = engine.handle(event)
        publish()  // before the effects: an idle client woken by them reads the new state
        carryOut(effects)
        updateTicker()
    }

    /// Publishes the engine's playback state for `snapshot()` (on the queue, after every change and
    /// before its effects: a listener's idle client woken by them reads the new state).
    private func publish() {
        var s = PlayerSnapshot(engine)
        s.updatingJob = runningJob
        let now = MonotonicClock.now()
        published.withLock { $0 = (s, now) }
    }

    private func carryOut(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .render(let frame):
                do { try display?.show(frame) } catch { logger.error("display: \(error)") }
                listener?(.screen)
            case .playback(let command):
                playback.perform(command)
            case .persist(let settings):
                player.setSoundCheck(settings.soundCheck)
                do { try settingsStore.save(settings) } catch { logger.error("cannot save settings: \(error)") }
            case .rate(let track, let stars):
                do { try settingsStore.rate(track, stars: stars) } catch { logger.error("cannot store rating: \(error)") }
            case .backlight(let on):
                try? display?.setBacklight(on)
            case .rescanLibrary:
                rescan()
            case .notify(let subsystem):
                listener?(MPDIdleSubsystems(subsystem))
            case .click(let level):
                if level != .off { player.click(volume: level == .loud ? 80 : 35) }
            case .checkpoint(let state):
                do { try resumeStore.save(state) } catch { logger.error("cannot save the resume checkpoint: \(error)") }
            case .played(let track):
                do { try playState.played(track) } catch { logger.error("cannot count a play: \(error)") }
            case .skipped(let track):
                do { try playState.skipped(track) } catch { logger.error("cannot count a skip: \(error)") }
            case .bookmark(let track, let ms):
                do { try playState.bookmark(track, ms: ms) } catch { logger.error("cannot store a bookmark: \(error)") }
            case .episodeFinished(let track):
                do { try playState.episodeFinished(track) } catch { logger.error("cannot mark an episode: \(error)") }
            case .power(let action):
                runPowerCommand(action)
            case .rawInput(let on):
                wheelCalibration?.forwardRawEvents(to: on ? rawPost : nil)
            case .saveWheel(let result):
                // Answered through the queue, so the frames of this batch are drawn first.
                post(.wheelSaved(wheelCalibration?.save(result) ?? .notWritten, at: MonotonicClock.now()))
            }
        }
    }
}

extension ServiceLoop {
    /// Runs the command configured for Settings → Shut Down / Restart on a thread of its own (the
    /// engine's queue never waits for it) and logs one line with its exit status.
    private func runPowerCommand(_ action: PowerAction) {
        guard let command = powerCommands[action], !command.isEmpty else {
            logger.warning("\(action.title): no command configured")
            return
        }
        let logger = self.logger
        let thread = Thread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            do {
                try process.run()
                process.waitUntilExit()
                logger.notice("\(action.title): '\(command)' exited with status \(process.terminationStatus)")
            } catch {
                logger.error("\(action.title): cannot run '\(command)': \(error)")
            }
        }
        thread.name = "clickwheel.power"
        thread.start()
    }
}

extension ServiceLoop: PlayerStateSource {
    /// The engine's playback state as last published: no wait for the queue, so cheap enough for the
    /// control server's event loop. While playing, the elapsed time runs on from the last position
    /// report at the real-time rate (as MPD computes it), at most `positionSlackMS` past it.
    func snapshot() -> PlayerSnapshot {
        var (s, at) = published.withLock { $0 }
        if s.status == .playing {
            let ran = (MonotonicClock.now().microseconds - at.microseconds) / 1000
            s.elapsedMS += Int(min(max(0, ran), Self.positionSlackMS))
        }
        return s
    }

    /// How far `snapshot()` runs the elapsed time past the engine's last word (position reports come
    /// several times a second; if they stop, the time stops too).
    static let positionSlackMS: Int64 = 2000

    /// A client changed stored playlists: the menus reread them, idle clients hear of it.
    func libraryEdited(_ subsystems: MPDIdleSubsystems) {
        queue.async { [self] in
            handle(.libraryChanged(at: MonotonicClock.now()))
            listener?(subsystems)
        }
    }

    /// MPD's `update`: a job id; the scan starts unless one runs (then the job is that scan).
    func update() -> Int {
        queue.sync {
            updateJobs += 1
            if runningJob == nil {
                runningJob = updateJobs
                publish()
                rescan()
                listener?(.update)
            }
            return runningJob ?? updateJobs
        }
    }

    /// Runs a control request on the loop's queue and carries out its effects before answering, so a
    /// client's next command sees the change.
    func control(_ request: ControlRequest) -> Result<[Int], ControlError> {
        queue.sync {
            let outcome = engine.control(request, at: MonotonicClock.now())
            publish()
            carryOut(outcome.effects)
            updateTicker()
            return outcome.result
        }
    }

    /// Input from the socket, fed as the hardware would feed it; a hold releases `ms` later (the
    /// ticks in between make it a hold, as with a real button).
    func input(_ input: RemoteInput) {
        switch input {
        case .wheel(let steps):
            post(.wheel(steps, at: MonotonicClock.now()))
        case .press(let button):
            queue.sync {
                handle(.button(button, .down, at: MonotonicClock.now()))
                handle(.button(button, .up, at: MonotonicClock.now()))
            }
        case .hold(let button, let ms):
            post(.button(button, .down, at: MonotonicClock.now()))
            queue.asyncAfter(deadline: .now() + .milliseconds(ms)) { [self] in
                handle(.button(button, .up, at: MonotonicClock.now()))
            }
        }
    }

    func screen() -> ScreenSnapshot {
        queue.sync {
            let lines = engine.frame?.lines ?? engine.currentFrame().lines
            let p = engine.position()
            return ScreenSnapshot(rows: lines, title: p.title, cursor: p.cursor, count: p.count, depth: p.depth)
        }
    }
}
