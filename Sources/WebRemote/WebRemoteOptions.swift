public import ClickWheelCore

/// How the web remote listens and whom it lets in.
public struct WebRemoteOptions: Sendable {
    /// The address to bind, e.g. `127.0.0.1` (the default) or `0.0.0.0`.
    public var host: String
    /// The TCP port; 0: any free one (tests).
    public var port: Int
    /// The password every browser must give before it sees anything. Required when `host` is not a loopback
    /// address (`WebRemote.start` refuses to listen there without one); on loopback it is asked for when set.
    public var password: String?
    /// The display the frames are made for (the page draws this many cells).
    public var geometry: DisplayGeometry
    public var charset: TextCharset
    /// At most this many browsers at once (one more is refused with 503).
    public var maxClients = 64
    /// Input messages a browser may send per second, and the burst it may send at once; the rest are
    /// dropped (a stuck or hostile page cannot flood the engine's queue).
    public var inputPerSecond = 60.0
    public var inputBurst = 40.0
    /// A browser that owes this many bytes of frames is dropped (it stopped reading).
    public var maxOwedBytes = 256 << 10
    /// The largest WebSocket message a browser may send.
    public var maxMessageBytes = 4096
    /// A browser must give the password within this many seconds, or is closed.
    public var authTimeoutSeconds: Int64 = 30

    public init(host: String, port: Int, password: String?, geometry: DisplayGeometry, charset: TextCharset) {
        self.host = host
        self.port = port
        self.password = password
        self.geometry = geometry
        self.charset = charset
    }

    /// Reads `HOST:PORT` (as the `web` key takes it; `[::1]:8080` for IPv6).
    public init?(address: String, password: String?, geometry: DisplayGeometry, charset: TextCharset) {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
            (0...65535).contains(port), colon != address.startIndex
        else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.init(host: host, port: port, password: password, geometry: geometry, charset: charset)
    }

    /// True for 127.0.0.0/8, ::1 and `localhost`: only this machine can connect.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether a browser must give the password: always off loopback, and on loopback when one is set.
    var needsPassword: Bool { password != nil || !isLoopback }
}

/// What the page sends that the engine hears: wheel steps (after `WheelAngle`, 20° each) and button edges.
public enum WebInput: Hashable, Sendable {
    case wheel(Int)
    case button(Button, ButtonPhase)
}

/// Now Playing below the device: what the page shows besides the LCD.
public struct WebNowPlaying: Hashable, Sendable {
    public enum State: String, Sendable { case play, pause, stop }
    public var state: State
    public var title: String
    public var artist: String
    public var album: String
    public var elapsedMS: Int
    public var durationMS: Int
    public var volume: Int
    /// The library id of the track, for its artwork (`/art/ID`); nil when nothing is current.
    public var trackID: Int64?
    public var hasArtwork: Bool

    public init(
        state: State, title: String = "", artist: String = "", album: String = "", elapsedMS: Int = 0,
        durationMS: Int = 0, volume: Int = 0, trackID: Int64? = nil, hasArtwork: Bool = false
    ) {
        self.state = state
        self.title = title
        self.artist = artist
        self.album = album
        self.elapsedMS = elapsedMS
        self.durationMS = durationMS
        self.volume = volume
        self.trackID = trackID
        self.hasArtwork = hasArtwork
    }
}

/// A picture's bytes and type, for `/art/ID`.
public struct WebArtwork: Sendable {
    public var mime: String
    public var bytes: [UInt8]
    public init(mime: String, bytes: [UInt8]) {
        self.mime = mime
        self.bytes = bytes
    }
}
