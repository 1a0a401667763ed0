/// Main menu → Speakers: the Snapcast rooms and the Pi's own output, as the service last saw them.
///
/// The engine reads no socket: the service's Snapcast control client sends the whole state as
/// `Event.speakers` whenever it changes (a room connects, Snapweb moves a volume, the server goes away),
/// and the engine asks for changes with `Effect.speakers`.
public struct Speakers: Hashable, Sendable {
    /// Whether the Snapcast server's control port answers.
    public enum Server: Hashable, Sendable {
        /// Not reached yet since the start.
        case connecting
        case online
        /// Lost or refused: the service retries every second.
        case offline
    }

    public var server: Server
    /// The server's clients, in the order the server lists them.
    public var rooms: [SpeakerRoom]
    /// The Pi's own output ("This Pi": the `pulse` output) on or off; nil when none is configured.
    public var thisPi: Bool?

    public init(server: Server = .connecting, rooms: [SpeakerRoom] = [], thisPi: Bool? = nil) {
        self.server = server
        self.rooms = rooms
        self.thisPi = thisPi
    }

    /// The room with Snapcast client id `id`.
    public func room(_ id: String) -> SpeakerRoom? { rooms.first { $0.id == id } }
}

/// One Snapcast client: a room.
public struct SpeakerRoom: Hashable, Sendable {
    /// Snapcast's client id (`--hostID`, with `#N` for a second instance on one host).
    public var id: String
    /// What the menu shows: the name given in Snapweb (`config.name`), else the host's name.
    public var name: String
    public var connected: Bool
    /// Muted (the client's own mute or its group's): the room is off.
    public var muted: Bool
    /// 0…100.
    public var volume: Int

    public init(id: String, name: String, connected: Bool, muted: Bool, volume: Int) {
        self.id = id
        self.name = name
        self.connected = connected
        self.muted = muted
        self.volume = volume
    }

    /// On: not muted.
    public var on: Bool { !muted }
}

/// What the Speakers menu asks of the service.
public enum SpeakerCommand: Hashable, Sendable {
    /// Unmute (`on`) or mute a room.
    case setRoom(id: String, on: Bool)
    /// Set a room's volume, 0…100.
    case setVolume(id: String, percent: Int)
    /// Switch the Pi's own output on or off (as MPD's `toggleoutput` on it).
    case setThisPi(on: Bool)
}
