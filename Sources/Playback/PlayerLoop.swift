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
        /// Decoding `current` and writing it.
        case playing
        /// Everything is written and nothing is queued: waiting for the drain to say it was heard.
        case drainingToEnd
        /// The next audio needs another stream format: waiting for the drain, then a new stream starts with
        /// `current` at `sample`.
        case drainingForFormat(sample: Int64, announce: Bool)
        /// Pausing: the fade-out is written after a flush; the stream is corked once the clock passes
        /// `until` (or at `deadline`, should the clock stall). `resumeFrom` says where to go on.
        case fadingOut(until: Int64, deadline: Date)
        /// Paused after a fade: corked, nothing queued past the fade; `resumeFrom` says where to go on.
        case fadedOut
    }

    /// Where to start a stream once one can be opened (connected again, or after the old one died).
    struct StartPoint {
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

    var connected = false
    var nextAttempt = Date.distantPast
    var unavailableReported = false
    /// What `.outputHealth` last said (nothing is reported while every output plays, as at a good start).
    var health = OutputHealth.audible
    /// Why the last connect failed (for the health of an output that is not a `MultiOutput`).
    var connectFailure: String?
    /// Whether a stream opened on this connection; a failure before that means the server is not ready.
    var streamOpenedOnConnection = false
    /// Whether the connection was made again once for a server that failed its first stream (once per
    /// outage: a server that keeps failing streams gets the pause after that).
    var reconnectedForFirstStream = false
    static let retryInterval = 0.25

    var current: (any TrackDecoder)?
    var queued: (any TrackDecoder)?
    var timeline = Timeline(rate: 44_100)
    var streamFormat: PCMFormat?
    var corked = false
    var activity = Activity.idle
    var paused = false
    var volume = 100
    /// The track and sample last heard, from the stream clock.
    var heard: (track: AudioTrack, sample: Int64)?
    var pendingStart: StartPoint?
    /// Where a faded pause goes on: the first frame after the fade-out.
    var resumeFrom: StartPoint?
    /// What was written lately, by stream frame (a pause fades it out).
    var history = PCMHistory(format: PCMFormat(sampleRate: 44_100, channels: 2))
    /// Frames of fade-in still to ramp, of `fadeInLength`.
    var fadeInRemaining = 0
    var fadeInLength = 0
    /// Uncork once `fill` has written (a resume after a faded pause).
    var uncorkWhenFilled = false
    /// Underruns not yet in a log line, and when the last line was written (`underrun`).
    var unloggedUnderruns = 0
    var lastUnderrunLog: Date?
    /// Sound Check: apply each track's ReplayGain (from the index) while decoding.
    var soundCheck = false
    /// Settings → Audiobooks: the speed spoken word plays at (1: as recorded).
    var spokenWordSpeed = 1.0
    /// The time-scaler while spoken word plays at another speed than 1; nil: the decoder's samples go out
    /// as they are.
    var speech: SpeechStage?
    /// A speed change's crossfade: the old audio of the first rewritten frames, faded out under the new.
    var crossfade: (old: [Int16], done: Int)?
    /// Where the next write lands when not after the last one (a speed change rewrites the queue).
    var rewriteAt: Int64?
    /// Write at least up to this stream frame, whatever the stream asks: a rewrite covers the old queue.
    var coverUntil: Int64 = 0
    /// The track and the `positionInterval` slot of the last `.position` report.
    var lastReportSlot: (track: Int, index: Int64)?
    /// When the heard position reaches the next slot (the next report).
    var nextReportDue = Date.distantPast
    var shuttingDown = false
    /// The crossfade between tracks in seconds (MPD's `crossfade`; 0: gapless joins).
    var crossfadeSeconds = 0
    /// A crossfade being written: the old track mixed in under the start of the current one.
    var overlap: Overlap?
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 16)
    /// The old track's frames during an overlap (as large as `buffer`: a chunk of each is mixed).
    let overlapBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 32 * 1024, alignment: 16)

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

    deinit {
        buffer.deallocate()
        overlapBuffer.deallocate()
    }

    /// The server ran out of audio while a track played (a dropout was heard): counted, and logged at most
    /// once per `underrunLogInterval` with the number since the last line, so a struggling machine logs a
    /// line now and then, not one per period.
    func underrun() {
        stats.underruns.add(1, ordering: .relaxed)
        unloggedUnderruns += 1
        let now = Date()
        if let last = lastUnderrunLog, now.timeIntervalSince(last) < Self.underrunLogInterval { return }
        let track = current.map { " in track \($0.track.id)" } ?? ""
        let count = unloggedUnderruns == 1 ? "an audio underrun" : "\(unloggedUnderruns) audio underruns"
        logger.warning(
            "\(count)\(track): the sound server ran out of audio and played silence (the audio thread was held up for longer than the buffer lasts; is the machine overloaded?)")
        lastUnderrunLog = now
        unloggedUnderruns = 0
    }

    static let underrunLogInterval: TimeInterval = 10

    /// Runs until a `.shutdown` command: wait for a command or a wake, obey, connect if needed, feed the
    /// stream, report what was heard.
    func run() {
        while !shuttingDown {
            for (ticket, command) in mailbox.wait(timeout: waitTimeout) {
                answered = ticket
                handle(command)
            }
            if shuttingDown { break }
            if !connected {
                if connectIfDue() { checkHealth() }
            }
            if connected {
                service()
                if connected { checkHealth() }
            }
        }
        current = nil
        queued = nil
        overlap = nil
        output.disconnect()
    }

    /// How long to sleep when nothing wakes the thread: short while audio moves (position reports, the null
    /// output's clock), the retry interval while disconnected. An output that wakes the thread whenever it
    /// wants data (PulseAudio's write callback, every sink period) needs no polling on top: then only the
    /// next position report is timed (a poll besides the callbacks would add as many wakeups again).
    private var waitTimeout: Double {
        if !connected { return max(0.01, nextAttempt.timeIntervalSinceNow) }
        if case .fadingOut = activity { return 0.01 }
        if activity == .idle || paused { return 1 }
        guard output.wakesWhenWritable else { return 0.05 }
        return min(1, max(0.01, nextReportDue.timeIntervalSinceNow))
    }

    /// Tries to connect when the retry time has come; one log line and one report per outage. True when
    /// it tried.
    @discardableResult
    func connectIfDue() -> Bool {
        guard Date() >= nextAttempt else { return false }
        let mailbox = self.mailbox
        do {
            let server = try output.connect { mailbox.wake() }
            connected = true
            connectFailure = nil
            unavailableReported = false
            streamOpenedOnConnection = false
            streamFormat = nil
            logger.info("audio output connected: \(server)")
            report(.outputAvailable(server: server))
        } catch {
            connectFailure = error.description
            nextAttempt = Date(timeIntervalSinceNow: Self.retryInterval)
            if !unavailableReported {
                unavailableReported = true
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
        } else if connected, output.unreachable == nil {
            now = .audible
        } else {
            let why = output.unreachable ?? connectFailure ?? "not connected"
            now = .silent([OutputFault(name: "Audio output", plugin: output is PulseAudioOutput ? "pulse" : "other", reason: why)])
        }
        guard now != health else { return }
        health = now
        report(.outputHealth(now))
    }

    /// The server went away: remember what was heard, drop the connection, reconnect soon.
    func serverLost(_ reason: String) {
        if activity != .idle, pendingStart == nil { pendingStart = resumePoint() }
        output.disconnect()
        connected = false
        streamFormat = nil
        nextAttempt = Date()
        unavailableReported = true
        logger.warning("sound server lost (\(reason)); reconnecting")
        report(.outputUnavailable(reason: reason))
    }

    /// Where to pick up after the stream is gone: what was heard last, else the start of what was written.
    func resumePoint() -> StartPoint? {
        if let resumeFrom { return resumeFrom }
        if let heard { return StartPoint(track: heard.track, sample: heard.sample, announce: false) }
        if let first = timeline.segments.first {
            return StartPoint(track: first.track, sample: first.firstSample, announce: true)
        }
        return current.map { StartPoint(track: $0.track, sample: 0, announce: true) }
    }

    /// Handles a failed output call: a lost server reconnects, anything else reopens the stream paused.
    /// The first stream on a connection failing is taken for a server not ready yet (a pulse server
    /// shutting down still takes connections and answers the stream with an I/O error, as pipewire-pulse
    /// does during a restart): connect again after the retry interval, once.
    func outputFailed(_ error: AudioOutputError) {
        if error.serverGone {
            serverLost(error.message)
        } else if !streamOpenedOnConnection && !reconnectedForFirstStream {
            reconnectedForFirstStream = true
            serverLost("its first stream failed: \(error.message)")
            nextAttempt = Date(timeIntervalSinceNow: Self.retryInterval)
        } else {
            logger.warning("audio stream failed: \(error)")
            streamLost()
        }
    }
}
