/// A request from a remote controller (the MPD control socket) to change playback or the queue.
///
/// Positions are queue indices, ids are song ids (`PlayQueue.Entry.id`). The engine checks every
/// position against the queue as it is when the request runs and answers with a `ControlError` that
/// names MPD's reason, so the control server only translates.
public enum ControlRequest: Hashable, Sendable {
    /// Start entry `position`, or with nil resume / start the current entry (MPD's `play -1` too).
    case play(position: Int?)
    case playID(Int?)
    /// Pause (true), resume (false), or toggle (nil).
    case pause(Bool?)
    case stop
    case next
    case previous
    /// Play entry `position` from `ms`.
    case seek(position: Int, ms: Int)
    case seekID(Int, ms: Int)
    /// Move in the current entry, to `ms` or by `ms` when `relative`.
    case seekCurrent(ms: Int, relative: Bool)
    case setVolume(Int)
    case changeVolume(by: Int)
    case random(Bool)
    case repeatMode(Bool)
    case single(Player.Single)
    case consume(Bool)
    /// MPD's `replay_gain_mode`: "off", "track", "album" or "auto" (checked by the control server).
    case replayGainMode(String)
    /// MPD's `crossfade SECONDS` (checked by the control server: not negative).
    case crossfade(Int)
    /// MPD's `mixrampdb DB` and `mixrampdelay SECONDS`: stored and shown (see `Settings.mixRampDB`).
    case mixRampDB(Double)
    case mixRampDelay(Double)
    /// Insert tracks at a position (nil: at the end); the reply holds their song ids.
    case add([TrackID], at: QueuePosition?)
    case delete(QueueSlice)
    case deleteID(Int)
    case move(QueueSlice, to: QueuePosition)
    case moveID(Int, to: QueuePosition)
    case swap(Int, Int)
    case swapID(Int, Int)
    /// Shuffle the whole queue or a slice of it (the playing entry first, as MPD does).
    case shuffle(QueueSlice?)
    case clear
    case priority(Int, slices: [QueueSlice])
    case priorityID(Int, ids: [Int])
    /// Open the screen named `identifier` (`MenuCatalog.identifier(of:)`) as if walked to from the main
    /// menu, even when Settings hides a row on the way (the `screen NAME` extension).
    case openScreen(String)
}

/// A position in the queue: absolute, or relative to the current entry (MPD's `+N` is N after it,
/// `-N` is N before it).
public enum QueuePosition: Hashable, Sendable {
    case absolute(Int)
    case afterCurrent(Int)
    case beforeCurrent(Int)
}

/// A half-open slice of queue positions; `end` nil means to the end.
public struct QueueSlice: Hashable, Sendable {
    public var start: Int
    public var end: Int?

    public init(start: Int, end: Int?) {
        self.start = start
        self.end = end
    }

    /// One position.
    public static func single(_ position: Int) -> QueueSlice { QueueSlice(start: position, end: position + 1) }
}

/// Why the engine refused a control request; each case is one MPD error.
public enum ControlError: Error, Hashable, Sendable {
    /// A position past the queue (MPD: ACK 2 "Bad song index").
    case badSongIndex
    /// An unknown song id (MPD: ACK 50 "No such song").
    case noSuchSong
    /// Needs playback (MPD: ACK 55 "Not playing").
    case notPlaying
    /// A relative position with nothing current (MPD: ACK 55 "No current song").
    case noCurrentSong
    /// A target position past the end (MPD: ACK 2 "Number too large: N").
    case positionTooLarge(Int)
    /// The queue would hold more than `PlayQueue.clientLimit` (MPD: ACK 51 "Playlist is too large").
    case queueTooLarge
    /// No fixed row leads to a screen of that name (MPD: ACK 50), with the names that can be opened.
    case noSuchScreen(String, known: [String])
}

/// What a control request did: its reply (the song ids added, if any) or its error, and the effects
/// the shells carry out (as from `Engine.handle`, a render last when the screen changed).
public struct ControlOutcome: Sendable {
    public var result: Result<[Int], ControlError>
    public var effects: [Effect]
}
