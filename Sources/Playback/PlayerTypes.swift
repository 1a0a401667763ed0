/// A file to play and the id the engine knows it by (its queue's song id); reports carry the id back.
public struct AudioTrack: Hashable, Sendable {
    public var id: Int
    public var path: String

    public init(id: Int, path: String) {
        self.id = id
        self.path = path
    }
}

/// What the audio thread tells the engine, in the order it happened.
public enum PlayerReport: Hashable, Sendable {
    /// The track is now heard (after `play`, or at a gapless change); a seek or reconnect does not repeat it.
    case started(trackID: Int)
    /// Where the heard audio is, from the stream's clock; sent about every `positionInterval` while playing,
    /// and after a seek.
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
    case click(volume: Int)
    case shutdown
}
