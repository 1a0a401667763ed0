import Foundation
public import Logging
import NamedThreads

/// Plays audio files (every format of `Decoders`) on a dedicated audio thread (a `Thread`, never Swift's
/// cooperative pool) and reports what the listener hears through `reports`.
///
/// Thread rules: every method may be called from any thread or task; each only posts a command to the
/// audio thread and returns at once (no method waits for audio, except `shutdown`). Commands are carried
/// out in the order they were sent. Reports arrive in the order things were heard.
///
/// Each command method returns the command's ticket (1, 2, 3… in the order sent) and each report
/// carries the ticket of the last command the audio thread had carried out when it made the report,
/// so a caller can tell a report that answers its latest command from one overtaken by it.
///
/// The engine owns the play queue: it calls `play` for a new track, `enqueueNext` with the track that
/// follows when it receives `.started` (the player opens and decodes it early and joins it without a gap),
/// and `play` again after `.failed` or when the user skips.
public final class AudioPlayer: Sendable {
    /// Which output the audio thread makes for itself.
    public enum Output: Sendable {
        /// A PulseAudio or pipewire-pulse server; nil: `$PULSE_SERVER` or the default socket.
        case pulse(server: String?)
        /// No sound, real-time pace (machines without audio, tests of the engine).
        case null
        /// Any other output, made on the audio thread.
        case custom(@Sendable () -> any AudioOutput)
        /// Several outputs fed the same PCM (`MultiOutput`), each made on the audio thread; turned on and off
        /// with `setOutputEnabled`.
        case several([MultiOutput.Descriptor])
    }

    /// What the audio thread reports, each with the ticket of the last command it had carried out;
    /// buffered (newest 4096) so a slow reader never blocks audio. Empty and finished when the player was
    /// made with `reportsTo`.
    public let reports: AsyncStream<PlayerEvent>
    private let mailbox = Mailbox()
    private let stats = PlayerStats()

    /// How many times the sound server ran out of audio while a track played (each one a dropout the
    /// listener heard; logged by the audio thread, at most a line per 10 s).
    public var underruns: Int { stats.underruns.load(ordering: .relaxed) }

    /// Starts the audio thread. It connects to the output at once, or keeps retrying every 0.25 s with one
    /// log line if there is no server. `positionInterval`: `.position` reports come as the heard position
    /// passes each multiple of it (a clock shown from them changes with the music's seconds).
    /// `reportsTo`: instead of `reports`, each report is handed to this on the audio thread as it is made (it
    /// must not block: it only hands the event on, as a queue's `async` does). For a reader that only hands each
    /// report to a queue, that spares the task reading the stream (jobs on Swift's pool, a pool thread woken
    /// for each report).
    public init(
        output: Output = .pulse(server: nil), positionInterval: Double = 1,
        logger: Logger = Logger(label: "clickwheel.playback"),
        reportsTo sink: (@Sendable (PlayerEvent) -> Void)? = nil
    ) {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        reports = stream
        if sink != nil { continuation.finish() }
        let mailbox = self.mailbox, stats = self.stats
        do {
            try NamedThread.detach(name: "cw-audio", stackSize: 1 << 20) {
                let made: any AudioOutput
                switch output {
                case .pulse(let server): made = PulseAudioOutput(server: server)
                case .null: made = NullAudioOutput()
                case .custom(let make): made = make()
                case .several(let outputs): made = MultiOutput(outputs)
                }
                let loop = PlayerLoop(
                    output: made, mailbox: mailbox, logger: logger, positionInterval: positionInterval, stats: stats
                ) { report, after in
                    let event = PlayerEvent(report: report, after: after)
                    if let sink { sink(event) } else { continuation.yield(event) }
                }
                loop.run()
                continuation.finish()
                mailbox.markFinished()
            }
        } catch {
            logger.critical("playback: \(error); no audio")
            continuation.finish()
            mailbox.markFinished()
        }
    }

    deinit { mailbox.post(.shutdown) }

    /// Plays `track` from `seconds`, replacing what plays; clears a queued next track and a pause.
    @discardableResult
    public func play(_ track: AudioTrack, at seconds: Double = 0) -> UInt64 { mailbox.post(.play(track, seconds: seconds)) }

    /// Sets the track to follow the current one gaplessly (nil clears it). Send it after `.started`.
    @discardableResult
    public func enqueueNext(_ track: AudioTrack?) -> UInt64 { mailbox.post(.enqueueNext(track)) }

    /// Pauses (corks the stream: the position freezes, nothing is lost).
    @discardableResult
    public func pause() -> UInt64 { mailbox.post(.pause) }

    /// Resumes where `pause` stopped.
    @discardableResult
    public func resume() -> UInt64 { mailbox.post(.resume) }

    /// Moves to `seconds` in the track being heard (flushes the buffer; stays paused if paused).
    @discardableResult
    public func seek(to seconds: Double) -> UInt64 { mailbox.post(.seek(seconds: seconds)) }

    /// Stops and forgets the current and queued track.
    @discardableResult
    public func stop() -> UInt64 { mailbox.post(.stop) }

    /// Sets the stream volume, 0–100 on PulseAudio's percent scale (50 is −18 dB).
    @discardableResult
    public func setVolume(_ volume: Int) -> UInt64 { mailbox.post(.volume(volume)) }

    /// Sound Check on or off: each track's `replayGain` (from the index) is applied while decoding, held
    /// down by its peak. It takes effect for the audio decoded from now on (~150 ms later).
    @discardableResult
    public func setSoundCheck(_ on: Bool) -> UInt64 { mailbox.post(.soundCheck(on)) }

    /// The speed podcasts and audiobooks play at (`AudioTrack.spokenWord`), pitch kept: 0.5 to 3 (1: as
    /// recorded; music always plays as it is). A change is heard within ~100 ms: what is queued is written
    /// again at the new speed from a little past what the server reads now, crossfaded over 40 ms.
    /// Positions stay in the track's own time.
    @discardableResult
    public func setSpokenWordSpeed(_ speed: Double) -> UInt64 { mailbox.post(.spokenWordSpeed(speed)) }

    /// Crossfades tracks that follow one another by `seconds` (MPD's `crossfade`; 0, the default: they
    /// join gaplessly). It applies at a track's natural end into the queued next one, under MPD 0.23's
    /// rules (see `PlayerLoop+Crossfade.swift`): both at least 20 s long and longer than the crossfade,
    /// both in the same sample rate and channel count, neither spoken word. A skip still cuts.
    @discardableResult
    public func setCrossfade(seconds: Int) -> UInt64 { mailbox.post(.crossfade(seconds: seconds)) }

    /// Plays the wheel click from the server's sample cache at `volume` (0–100; 0 is off).
    @discardableResult
    public func click(volume: Int) -> UInt64 { mailbox.post(.click(volume: volume)) }

    /// Turns output `index` of `.several` on or off (in the configuration's order); ignored for one output.
    @discardableResult
    public func setOutputEnabled(_ index: Int, _ on: Bool) -> UInt64 { mailbox.post(.outputEnabled(index: index, on: on)) }

    /// Stops the audio thread and waits until it has let go of the output (for service shutdown).
    public func shutdown() {
        mailbox.post(.shutdown)
        mailbox.waitUntilFinished()
    }
}
