/// What the engine knows of playback: the queue, the current entry, status and position.
///
/// The engine is the authority on the queue; the playback shell reports status and position back
/// through `Event.playback`, and the engine decides what plays after a track ends.
public struct Player: Hashable, Sendable {
    public enum Status: Hashable, Sendable { case stopped, playing, paused }

    /// The queue in play order (already shuffled when shuffle is on), with song ids and versions.
    public var entries = PlayQueue()
    /// The index in `queue` of the current track, nil when nothing is current.
    public var current: Int?
    public var status: Status = .stopped
    /// Position in the current track, milliseconds.
    public var elapsedMS: Int = 0

    /// MPD's `single` when Repeat is not One: stop after the current track (`on`), or do that once.
    public var single: Single = .off
    /// MPD's `consume`: a track leaves the queue once played or skipped.
    public var consume = false
    /// Set while no enabled audio output can play (as the playback shell last reported); nil while one can.
    public var outputProblem: OutputProblem?

    public enum Single: String, Hashable, Sendable { case off = "0", on = "1", oneshot }

    public init() {}

    /// Track ids in play order.
    public var queue: [TrackID] { entries.tracks }

    /// The current entry's song id.
    public var currentSongID: Int? {
        guard let current, entries.indices.contains(current) else { return nil }
        return entries[current].id
    }

    /// The current track's id.
    public var currentID: TrackID? {
        guard let current, entries.indices.contains(current) else { return nil }
        return entries[current].track
    }

    /// True while something is queued and current (the main menu then offers Now Playing).
    public var hasCurrent: Bool { currentID != nil }
}

/// What the playback shell tells the engine.
public enum PlaybackReport: Hashable, Sendable {
    /// Queue entry `index` started playing.
    case started(index: Int)
    /// The current position, milliseconds.
    case position(ms: Int)
    case paused
    case resumed
    /// Queue entry `index` played to its end.
    case finished(index: Int)
    /// Queue entry `index` could not be played.
    case failed(index: Int, message: String)
    /// Whether an audio output can play, sent when that changes: nil when one can, else which cannot.
    case outputs(OutputProblem?)
}

/// No enabled audio output can play (no sound server yet, the snapserver down and nothing else on).
public struct OutputProblem: Hashable, Sendable {
    /// The enabled outputs that cannot play, by the names the outputs list gives them (`This Pi`,
    /// `Snapcast`); empty when every output is turned off.
    public var outputs: [String]
    /// The error as MPD words it in `status` (`Failed to enable output "This Pi" (pulse); …`).
    public var message: String

    public init(outputs: [String], message: String) {
        self.outputs = outputs
        self.message = message
    }
}

/// What the engine asks of the playback shell.
public enum PlaybackCommand: Hashable, Sendable {
    /// Replace the whole queue. With `current` set, the track playing now keeps playing as that entry
    /// (a reshuffle); with nil, nothing starts until `play`.
    case replaceQueue([TrackID], current: Int?)
    /// Insert tracks into the queue at `index`.
    case insert([TrackID], at: Int)
    /// Start queue entry `index` from its beginning.
    case play(index: Int)
    case pause
    case resume
    case stop
    /// Move to `ms` in the current track.
    case seek(ms: Int)
    /// Set the output volume, 0…100.
    case volume(Int)
    /// Play podcasts and audiobooks at this speed, in percent (Settings → Audiobooks; music is not touched).
    case spokenWordSpeed(percent: Int)
    /// Crossfade tracks by this many seconds at their natural ends (0: gapless; MPD's `crossfade`).
    case crossfade(seconds: Int)
}
