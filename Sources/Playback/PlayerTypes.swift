import Foundation
import Synchronization

/// A file to play and the id the engine knows it by (its queue's song id); reports carry the id back.
public struct AudioTrack: Hashable, Sendable {
    public var id: Int
    /// The path as text, for log lines (a file name that is not valid UTF-8 shows U+FFFD here).
    public var path: String { String(decoding: pathBytes, as: UTF8.self) }
    /// The exact bytes the file system knows the file by; what the decoder opens.
    public var pathBytes: [UInt8]
    /// The track's ReplayGain from the index, applied while Sound Check is on; nil when it has none.
    public var replayGain: ReplayGain?
    /// A podcast episode or an audiobook: it plays at the spoken-word speed (`setSpokenWordSpeed`).
    public var spokenWord: Bool

    public init(id: Int, path: String, replayGain: ReplayGain? = nil, spokenWord: Bool = false) {
        self.init(id: id, pathBytes: Array(path.utf8), replayGain: replayGain, spokenWord: spokenWord)
    }

    /// A file known by its raw name bytes (Linux file names are bytes, not necessarily UTF-8).
    public init(id: Int, pathBytes: [UInt8], replayGain: ReplayGain? = nil, spokenWord: Bool = false) {
        self.id = id
        self.pathBytes = pathBytes
        self.replayGain = replayGain
        self.spokenWord = spokenWord
    }
}

/// A track's ReplayGain values (TXXX `REPLAYGAIN_TRACK_GAIN`/`_PEAK` or RVA2, as the index stores them).
public struct ReplayGain: Hashable, Sendable {
    /// dB to apply for a reference loudness.
    public var gain: Double
    /// The track's peak sample, 1 = full scale; nil when unknown.
    public var peak: Double?

    public init(gain: Double, peak: Double? = nil) {
        self.gain = gain
        self.peak = peak
    }

    /// The linear factor: the gain, held down so the peak does not clip (`1 / peak` at most).
    public var scale: Double {
        let g = pow(10, gain / 20)
        guard let peak, peak > 0 else { return g }
        return min(g, 1 / peak)
    }
}

/// What the audio thread tells the engine, in the order it happened.
public enum PlayerReport: Hashable, Sendable {
    /// The track is now heard (after `play`, or at a gapless change); a seek or reconnect does not repeat it.
    case started(trackID: Int)
    /// Where the heard audio is, from the stream's clock; sent while playing as the position passes each
    /// multiple of `positionInterval` (within a sink period), and after a seek.
    case position(trackID: Int, seconds: Double)
    /// The track was heard to its end (the next one, if any, follows with `.started`).
    case finished(trackID: Int)
    /// The file could not be opened or decoded; it was skipped (a queued next track is dropped with it).
    case failed(trackID: Int, reason: String)
    case paused(PauseReason)
    case resumed
    /// Playback stopped on command; nothing is queued.
    case stopped
    /// No sound server (at start, or it went away); the player keeps trying and resumes by itself.
    case outputUnavailable(reason: String)
    /// Connected (again) to the sound server; `server` describes it.
    case outputAvailable(server: String)
    /// Whether any enabled output can play, sent when that changes (and first when none can).
    case outputHealth(OutputHealth)
}

/// Whether the enabled outputs can play.
public enum OutputHealth: Hashable, Sendable {
    /// At least one enabled output plays.
    case audible
    /// No enabled output can play: each enabled one and why not (empty: every output is turned off).
    case silent([OutputFault])
}

/// An enabled output that cannot play now, and why.
public struct OutputFault: Hashable, Sendable {
    /// What the outputs list calls it (`This Pi`, `Snapcast`).
    public var name: String
    /// `pulse`, `snapcast`, `null` (MPD's `plugin` field).
    public var plugin: String
    /// Why, in one line (`pa_context_connect: Connection refused`).
    public var reason: String

    public init(name: String, plugin: String, reason: String) {
        self.name = name
        self.plugin = plugin
        self.reason = reason
    }
}

/// A report and the ticket of the last command carried out before it was made (0: none yet).
public struct PlayerEvent: Hashable, Sendable {
    public var report: PlayerReport
    public var after: UInt64

    public init(report: PlayerReport, after: UInt64) {
        self.report = report
        self.after = after
    }
}

/// Why playback paused.
public enum PauseReason: Hashable, Sendable {
    /// A `pause()` command.
    case command
    /// The sink went away (headphones, Bluetooth): like an iPod, pause instead of playing elsewhere.
    case outputRemoved
}

/// A request to the audio thread.
enum PlayerCommand: Sendable {
    case play(AudioTrack, seconds: Double)
    case enqueueNext(AudioTrack?)
    case pause
    case resume
    case seek(seconds: Double)
    case stop
    case volume(Int)
    case soundCheck(Bool)
    case spokenWordSpeed(Double)
    /// Seconds of crossfade between tracks (0: gapless).
    case crossfade(seconds: Int)
    case click(volume: Int)
    /// Turns one of a `MultiOutput`'s outputs on or off.
    case outputEnabled(index: Int, on: Bool)
    case shutdown
}

/// Counts the audio thread keeps for other threads to read.
final class PlayerStats: Sendable {
    /// Times the server ran out of audio while a track played.
    let underruns = Atomic<Int>(0)
}
