public import ClickWheelCore
public import MPDProtocol

/// What `status`, `currentsong` and the queue listings show of playback, read from the engine in one go.
///
/// The queue is the engine's value (copy-on-write: taking it costs nothing however long it is).
public struct PlayerSnapshot: Sendable, Hashable {
    public var status: Player.Status
    public var queue: PlayQueue
    public var current: Int?
    /// The entry that plays when the current one ends (MPD's `nextsong`): the engine's own rule
    /// (`Engine.entry(after:)`), so what `status` says is what then plays.
    public var next: Int?
    public var elapsedMS: Int
    public var volume: Int
    public var random: Bool
    public var repeatOn: Bool
    public var single: Player.Single
    public var consume: Bool
    /// MPD's `replay_gain_mode`: off, or the gain Sound Check applies (track, album, auto).
    public var replayGainMode = "off"
    /// MPD's `xfade` (seconds, shown while above 0), `mixrampdb` and `mixrampdelay` (shown while above 0).
    public var crossfadeSeconds = 0
    public var mixRampDB = 0.0
    public var mixRampDelay = -1.0
    /// The library update job running now (MPD's `updating_db`), if any.
    public var updatingJob: Int?
    /// How long the player has played since the service started, at the engine's last event (MPD's
    /// `playtime` in `stats`).
    public var playedMS: Int64
    /// MPD's `error`: set while playing with no output that can play (`Player.outputProblem`).
    public var error: String?

    public init(
        status: Player.Status = .stopped, queue: PlayQueue = PlayQueue(), current: Int? = nil, elapsedMS: Int = 0,
        volume: Int = 50, random: Bool = false, repeatOn: Bool = false, single: Player.Single = .off, consume: Bool = false
    ) {
        self.status = status
        self.queue = queue
        self.current = current
        self.next = nil
        self.elapsedMS = elapsedMS
        self.volume = volume
        self.random = random
        self.repeatOn = repeatOn
        self.single = single
        self.consume = consume
        updatingJob = nil
        playedMS = 0
        error = nil
    }

    /// The snapshot of an engine's state.
    public init(_ engine: Engine) {
        self.init(
            status: engine.player.status, queue: engine.player.entries, current: engine.player.current,
            elapsedMS: engine.player.elapsedMS, volume: engine.settings.volume, random: engine.settings.shuffle != .off,
            repeatOn: engine.settings.repeatMode != .off, single: engine.mpdSingle, consume: engine.player.consume)
        next = currentPosition.flatMap { engine.entry(after: $0) }.flatMap { queue.indices.contains($0) ? $0 : nil }
        playedMS = engine.playedMS
        replayGainMode = engine.settings.replayGainMode
        crossfadeSeconds = engine.settings.crossfadeSeconds
        mixRampDB = engine.settings.mixRampDB
        mixRampDelay = engine.settings.mixRampDelay
        // Paused or stopped nothing is asked of the outputs: no error (MPD finds a failed output only when
        // it opens one to play). Unlike MPD's, it goes by itself once an output plays (no `clearerror`).
        if engine.player.status == .playing { error = engine.player.outputProblem?.message }
    }

    /// The current entry's position, when it is in the queue.
    public var currentPosition: Int? {
        guard let current, queue.indices.contains(current) else { return nil }
        return current
    }
}

/// Where the control server reads playback state and sends what clients ask: the engine's owner
/// implements it.
///
/// Thread rules: called on the control server's command queues, never on the engine's own.
public protocol PlayerStateSource: Sendable {
    func snapshot() -> PlayerSnapshot
    /// A number that changes whenever `snapshot()` may answer differently, read without a lock; nil while
    /// it changes by itself (playing: the elapsed time runs). Read it before the snapshot it stands for.
    func snapshotStamp() -> UInt64?
    /// Runs a playback or queue request on the engine and returns its reply.
    func control(_ request: ControlRequest) -> Result<[Int], ControlError>
    /// Feeds input to the engine as the hardware would (the `wheel`, `press`, `hold` extensions).
    func input(_ input: RemoteInput)
    /// The frame on the display now, and where the user is (the `screen` extension).
    func screen() -> ScreenSnapshot
    /// A client waits for frames (`idle screen`): the engine must render from now on even without a
    /// display. Called on the connection's event loop, without waiting.
    func watchScreen()
    /// Something the control server changed in the library (stored playlists): idle clients and the
    /// menus hear of it.
    func libraryEdited(_ subsystems: MPDIdleSubsystems)
    /// Starts a library rescan (or joins the one running); returns its job id (`update`, `rescan`).
    func update() -> Int
}

/// Input from the control socket's extensions.
public enum RemoteInput: Hashable, Sendable {
    /// Wheel steps, positive = clockwise (down the list).
    case wheel(Int)
    /// A click: press and release.
    case press(Button)
    /// Press, hold for `ms`, release.
    case hold(Button, ms: Int)
}

/// What the `screen` extension shows: the frame's rows and the menu position.
public struct ScreenSnapshot: Sendable, Hashable {
    public var rows: [String]
    /// The title of the page on screen (`Now Playing`, a menu's title).
    public var title: String
    /// The cursor's row in the page's list, and the list's length.
    public var cursor: Int
    public var count: Int
    public var depth: Int
    /// The screen's stable name (`menu:`, `MenuCatalog.identifier(of:)`): `main`, `music.artists`, …
    public var menu: String

    public init(rows: [String], title: String, cursor: Int, count: Int, depth: Int, menu: String) {
        self.rows = rows
        self.title = title
        self.cursor = cursor
        self.count = count
        self.depth = depth
        self.menu = menu
    }
}

/// Per-connection state that outlives one request: the tag types the client asked for.
public struct MPDClientState: Sendable, Hashable {
    public var tagTypes: Set<String>
    /// The largest binary chunk this client takes (`binarylimit`; MPD's default 8192).
    public var binaryLimit = 8192
    /// What the client may do: everything, or only read until it gives the password.
    public var permission: MPDPermission = .all
    /// On the Unix socket (not TCP): may use `config`.
    public var isLocal = true
    /// This connection's number, unique while the server runs (whose messages are whose: `MessageBoard`).
    public var id: UInt64 = 0

    public init(tagTypes: Set<String>) { self.tagTypes = tagTypes }
}

extension MPDIdleSubsystems {
    /// The idle subsystem an engine notification stands for.
    public init(_ subsystem: Effect.Subsystem) {
        switch subsystem {
        case .playlist: self = .playlist
        case .player: self = .player
        case .mixer: self = .mixer
        case .options: self = .options
        case .storedPlaylist: self = .storedPlaylist
        }
    }
}
