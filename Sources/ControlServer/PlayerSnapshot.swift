public import ClickWheelCore

/// What `status`, `currentsong` and `playlistinfo` show of playback, read from the engine in one go.
public struct PlayerSnapshot: Sendable, Hashable {
    public var status: Player.Status
    public var queue: [TrackID]
    public var current: Int?
    public var elapsedMS: Int
    public var volume: Int
    public var shuffle: Bool
    public var repeatMode: Settings.Repeat
    /// Bumped on every queue change (MPD's `playlist:` version).
    public var queueVersion: Int

    public init(
        status: Player.Status, queue: [TrackID], current: Int?, elapsedMS: Int, volume: Int, shuffle: Bool,
        repeatMode: Settings.Repeat, queueVersion: Int
    ) {
        self.status = status
        self.queue = queue
        self.current = current
        self.elapsedMS = elapsedMS
        self.volume = volume
        self.shuffle = shuffle
        self.repeatMode = repeatMode
        self.queueVersion = queueVersion
    }
}

/// Where the control server reads playback state: the engine's owner implements it.
///
/// Thread rules: called on the control server's command queue, never on the engine's own.
public protocol PlayerStateSource: Sendable {
    func snapshot() -> PlayerSnapshot
}

/// Per-connection state that outlives one request: the tag types the client asked for.
public struct MPDClientState: Sendable, Hashable {
    public var tagTypes: Set<String>

    public init(tagTypes: Set<String>) { self.tagTypes = tagTypes }
}
