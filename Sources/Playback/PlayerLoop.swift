import Foundation
import Logging
import Synchronization

/// The audio thread: decodes (a `TrackDecoder` per track) and writes into the output, obeying commands from
/// the mailbox.
///
/// Thread rules: created, run and released on the audio thread only; nothing here is shared. It talks to
/// the rest of ClickWheel only through `Mailbox` (in) and `report` (out, an `AsyncStream` continuation).
/// It never touches the database and never sleeps except in `Mailbox.wait`.
final class PlayerLoop {
    /// What the thread is doing with the stream.
    enum Activity: Equatable {
        case idle
        /// Decoding `tracks.current` and writing it.
        case playing
        /// Everything is written and nothing is queued: waiting for the drain to say it was heard.
        case drainingToEnd
        /// The next audio needs another stream format: waiting for the drain, then a new stream starts with
        /// `tracks.current` at `sample`.
        case drainingForFormat(sample: Int64, announce: Bool)
        /// Pausing: the fade-out is written after a flush; the stream is corked once the clock passes
        /// `until` (or at `deadline`, should the clock stall). `resumeFrom` says where to go on.
        case fadingOut(until: Int64, deadline: Date, resumeFrom: StartPoint?)
        /// Paused after a fade: corked, nothing queued past the fade; `resumeFrom` says where to go on.
        case fadedOut(resumeFrom: StartPoint?)
    }

    /// Where to start a stream once one can be opened (connected again, or after the old one died).
    struct StartPoint: Equatable {
        var track: AudioTrack
        var sample: Int64
        var announce: Bool
        /// Ramp the first `Fade.milliseconds` up (resuming after a faded pause).
        var fadeIn = false
    }

    let output: any AudioOutput
    /// `output` when it is several outputs (cast once: the health is looked at on every pass).
    let multiOutput: MultiOutput?
    let mailbox: Mailbox
    let logger: Logger
    /// Counts other threads may read (`AudioPlayer.underruns`).
    let stats: PlayerStats
    let positionInterval: Double
    /// Hands a report to the player's stream with the ticket of the last command carried out.
    let emit: (PlayerReport, UInt64) -> Void
    /// The ticket of the last command taken from the mailbox (0: none yet).
    var answered: UInt64 = 0
    var shuttingDown = false

    // The parts below marked `@exclusivity(unchecked)` are read on every pass and every chunk. Each is a
    // struct or an enum changed through its own mutating methods, which makes Swift check every access to it
    // at run time (a call into the runtime each time) where the separate plain properties they replace
    // needed no check. The checks are left out for them: only the audio thread touches them, from this
    // class's own methods, and the compiler's static exclusivity checking still sees every access.

    /// The sound server: connected or when to try again, and the outputs' health last reported.
    @exclusivity(unchecked)
    var link = OutputLink()
    static let retryInterval = 0.25
    /// The open stream's format, timeline and recent frames.
    @exclusivity(unchecked)
    var stream = StreamState()
    /// The current, queued and (during a crossfade) outgoing tracks' decoders.
    @exclusivity(unchecked)
    var tracks = TrackDecoders()
    @exclusivity(unchecked)
    var activity = Activity.idle
    /// Whether the player is paused (asked to be, or paused by a lost stream or sink); `cork` is the stream's.
    var paused = false
    @exclusivity(unchecked)
    var cork = Cork.uncorked
    /// Where to start a stream once one can be opened (a play, seek or resume; after a reconnect).
    @exclusivity(unchecked)
    var pendingStart: StartPoint?
    /// A resume's fade-in still to ramp.
    @exclusivity(unchecked)
    var fadeIn = FadeIn.none
    /// What is heard, and when the next position report is due.
    @exclusivity(unchecked)
    var position = HeardPosition()
    var underrunLog = UnderrunLog()
    var settings = Settings()
    /// Spoken word at another speed: the speech stage and a speed change's rewrite.
    @exclusivity(unchecked)
    var speech = SpeechState()
    /// What is decoded before it is written, and the old track's frames during a crossfade.
    let scratch = ScratchBuffers()

    init(
        output: any AudioOutput, mailbox: Mailbox, logger: Logger, positionInterval: Double,
        stats: PlayerStats = PlayerStats(), emit: @escaping (PlayerReport, UInt64) -> Void
    ) {
        self.stats = stats
        self.output = output
        multiOutput = output as? MultiOutput
        self.mailbox = mailbox
        self.logger = logger
        self.positionInterval = positionInterval
        self.emit = emit
    }

    /// Reports what was heard, stamped with the last command carried out before it.
    func report(_ report: PlayerReport) { emit(report, answered) }

    deinit { scratch.deallocate() }

    /// The server ran out of audio while a track played (a dropout was heard): counted, and logged at most
    /// once per `UnderrunLog.interval` with the number since the last line, so a struggling machine logs a
    /// line now and then, not one per period.
    func underrun() {
        stats.underruns.add(1, ordering: .relaxed)
        guard let unlogged = underrunLog.count(at: Date()) else { return }
        let track = tracks.current.map { " in track \($0.track.id)" } ?? ""
        let count = unlogged == 1 ? "an audio underrun" : "\(unlogged) audio underruns"
        logger.warning(
            "\(count)\(track): the sound server ran out of audio and played silence (the audio thread was held up for longer than the buffer lasts; is the machine overloaded?)")
    }

    /// Runs until a `.shutdown` command: wait for a command or a wake, obey, connect if needed, feed the
    /// stream, report what was heard.
    func run() {
        while !shuttingDown {
            for (ticket, command) in mailbox.wait(timeout: waitTimeout) {
                answered = ticket
                handle(command)
            }
            if shuttingDown { break }
            if !link.isConnected {
                if connectIfDue() { checkHealth() }
            }
            if link.isConnected {
                service()
                if link.isConnected { checkHealth() }
            }
        }
        tracks.closeAll()
        output.disconnect()
    }

    /// How long to sleep when nothing wakes the thread: short while audio moves (position reports, the null
    /// output's clock), the retry interval while disconnected. An output that wakes the thread whenever it
    /// wants data (PulseAudio's write callback, every sink period) needs no polling on top: then only the
    /// next position report is timed (a poll besides the callbacks would add as many wakeups again). One
    /// that does not (the null output) is looked at every 50 ms, or sooner when the next position report is
    /// due.
    private var waitTimeout: Double {
        if let retryAt = link.retryAt { return max(0.01, retryAt.timeIntervalSinceNow) }
        if case .fadingOut = activity { return 0.01 }
        if activity.isIdle || paused { return 1 }
        let untilReport = max(0.01, position.nextDue.timeIntervalSinceNow)
        guard output.wakesWhenWritable else { return min(0.05, untilReport) }
        return min(1, untilReport)
    }

    /// Tries to connect when the retry time has come; one log line and one report per outage. True when
    /// it tried.
    @discardableResult
    func connectIfDue() -> Bool {
        guard let retryAt = link.retryAt, Date() >= retryAt else { return false }
        let mailbox = self.mailbox
        do {
            let server = try output.connect { mailbox.wake() }
            link.connected()
            stream.closed()
            logger.info("audio output connected: \(server)")
            report(.outputAvailable(server: server))
        } catch {
            if link.connectFailed(error.description, retryAt: Date(timeIntervalSinceNow: Self.retryInterval)) {
                logger.warning("no sound server (\(error)); retrying every \(Self.retryInterval) s, playback waits")
                report(.outputUnavailable(reason: error.description))
            }
        }
        return true
    }

    /// Reports `.outputHealth` when whether anything can be heard changed. Called after a connect attempt
    /// and after each pass while connected (not between a lost server and the next attempt: the outputs
    /// are merely disconnected then, not failed).
    func checkHealth() {
        let now: OutputHealth
        if let outputs = multiOutput {
            now = outputs.health()
        } else if link.isConnected, output.unreachable == nil {
            now = .audible
        } else {
            let why = output.unreachable ?? link.failure ?? "not connected"
            now = .silent([OutputFault(name: "Audio output", plugin: output is PulseAudioOutput ? "pulse" : "other", reason: why)])
        }
        guard now != link.health else { return }
        link.health = now
        report(.outputHealth(now))
    }

    /// The server went away: remember what was heard, drop the connection, reconnect at `retryAt`.
    func serverLost(_ reason: String, retryAt: Date = Date()) {
        if !activity.isIdle, pendingStart == nil { pendingStart = resumePoint() }
        output.disconnect()
        link.lost(retryAt: retryAt)
        stream.closed()
        logger.warning("sound server lost (\(reason)); reconnecting")
        report(.outputUnavailable(reason: reason))
    }

    /// Where to pick up after the stream is gone: what was heard last, else the start of what was written.
    func resumePoint() -> StartPoint? {
        if let resumeFrom = activity.resumeFrom { return resumeFrom }
        if let heard = position.heard { return StartPoint(track: heard.track, sample: heard.sample, announce: false) }
        if let first = stream.timeline.segments.first {
            return StartPoint(track: first.track, sample: first.firstSample, announce: true)
        }
        return tracks.current.map { StartPoint(track: $0.track, sample: 0, announce: true) }
    }

    /// Handles a failed output call: a lost server reconnects, anything else reopens the stream paused.
    /// The first stream on a connection failing is taken for a server not ready yet (a pulse server
    /// shutting down still takes connections and answers the stream with an I/O error, as pipewire-pulse
    /// does during a restart): connect again after the retry interval, once.
    func outputFailed(_ error: AudioOutputError) {
        if error.serverGone {
            serverLost(error.message)
        } else if link.retryFirstStream() {
            serverLost("its first stream failed: \(error.message)", retryAt: Date(timeIntervalSinceNow: Self.retryInterval))
        } else {
            logger.warning("audio stream failed: \(error)")
            streamLost()
        }
    }
}

