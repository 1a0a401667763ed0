public import ClickWheelCore

/// Everything `clickwheel run` can be told, with its defaults. Filled in layers: defaults, then the
/// YAML file, then `CLICKWHEEL_*` environment variables, then command-line flags (`ConfigLoader`).
public struct ServiceConfig: Equatable, Sendable {
    public enum Display: String, CaseIterable, Sendable { case terminal, lcdproc, hd44780, none }
    public enum Output: String, CaseIterable, Sendable { case pulse, null, snapcast }

    /// The music folder.
    public var music: String
    /// The library database.
    public var db: String
    /// The control socket.
    public var socket: String
    /// Where frames go; nil: the terminal when standard input and output are terminals, else none.
    public var display: Display?
    public var lcd: DisplayGeometry = DisplayGeometry(columns: 20, rows: 4)
    /// LCDd's address, `HOST:PORT`.
    public var lcdproc = "127.0.0.1:13666"
    public var i2cBus = "/dev/i2c-1"
    public var i2cAddress = 0x27
    /// Input devices: `auto`, `keyboard`, `none` or device paths; empty: auto (keyboard on a terminal).
    public var input: [String] = []
    public var stepsPerDetent = 1
    public var degreesPerStep = 15.0
    public var invertWheel = false
    /// Touch ring: its centre and radius on the pad, in device units (`clickwheel calibrate` measures
    /// them); nil: centred on the pad, filling it.
    public var touchRing: TouchRingDecoder.Ring?
    /// The EV_KEY code of the Select button, besides the default KEY_ENTER (e.g. 0x110, BTN_LEFT).
    public var selectKey: UInt16?
    public var acceleration: Settings.Acceleration = .normal
    public var holdMS = 600
    /// The outputs, in order (`output: [pulse, snapcast]`): each gets the same PCM; the first that plays
    /// keeps the clock. MPD clients turn them on and off (`enableoutput`…).
    public var outputs: [Output] = [.pulse]
    /// The first output (what `--output pulse|null` alone chooses).
    public var output: Output { outputs.first ?? .pulse }
    /// The snapserver source the `snapcast` output feeds: `tcp://HOST:PORT` (a `tcp://…?mode=server`
    /// source, 44100:16:2) or `pipe:///PATH` (a `pipe://` source's FIFO).
    public var snapcast = "tcp://127.0.0.1:4953"
    /// Snapserver's JSON-RPC control port for Main menu → Speakers, `HOST:PORT`, or `off`; nil: port 1705
    /// on the `snapcast` source's host (127.0.0.1 for a `pipe://` source) when the `snapcast` output is
    /// configured, else none.
    public var snapcastControl: String?
    /// Volume at first start (later the last volume is restored), 0–100.
    public var volume = 50
    public var logLevel = "info"
    /// The group that may use the control socket (mode 0660); nil: the service's own group.
    public var socketGroup: String?
    /// Also serve the MPD protocol on TCP, `HOST:PORT` (off by default; keep it on loopback).
    public var tcp: String?
    /// The web remote (`HOST:PORT`: the page and its WebSocket, off by default). Any address but loopback
    /// needs `password`, which every browser must then give.
    public var web: String?
    /// The control socket's password (MPD's `password`): without it a client may only read.
    public var password: String?
    /// Play the generated demo library: `music` and `db` become `demoFolder` and `demoDatabase`
    /// (under `$XDG_DATA_HOME/clickwheel/`), whatever else set them, so a real library is never touched.
    public var demo = false
    /// Settings → Shut Down runs this (through `/bin/sh -c`).
    public var shutdownCommand = "systemctl poweroff"
    /// Settings → Restart runs this (through `/bin/sh -c`).
    public var restartCommand = "systemctl reboot"
    /// Append every listen to this file in Rockbox's `.scrobbler.log` format; nil: no log (the default).
    public var scrobbleLog: String?
    /// The wall clock counts as synchronised exactly while this file exists (e.g.
    /// `/run/systemd/timesync/synchronized`); nil: ask the kernel (adjtimex). The scrobble log writes and
    /// the alarms ring only with a synchronised clock.
    public var clockSyncedFile: String?
    /// Podcast subscriptions fetched and downloaded by the service (`podcasts:` in the file).
    public var podcasts = Podcasts()

    /// The `podcasts:` section: feeds subscribed from the configuration, how often every feed is fetched,
    /// how many of each show's newest episodes are kept downloaded, the size cap of one episode, and when
    /// played episodes go.
    public struct Podcasts: Equatable, Sendable {
        /// Feed addresses subscribed at start (beside those added over the socket or the web remote).
        public var feeds: [String] = []
        /// Seconds between two fetches of one feed (a random part of up to a tenth is added).
        public var refreshSeconds = 3600
        /// The newest episodes of each show kept downloaded (a subscription may set its own).
        public var keep = 3
        /// The largest episode downloaded, in MB (10^6 bytes).
        public var maxEpisodeMB = 1024
        /// Played episodes the service downloaded are deleted this many days after they were published;
        /// 0: never (the default).
        public var deletePlayedAfterDays = 0

        public init() {}
    }

    public init(music: String, db: String, socket: String) {
        self.music = music
        self.db = db
        self.socket = socket
    }
}

extension ServiceConfig {
    /// Where Main menu → Speakers asks snapserver about its rooms (`snapcastControl`, see there); nil:
    /// no Snapcast server is configured, or `snapcast_control: off`.
    public var snapcastControlAddress: (host: String, port: Int)? {
        if let given = snapcastControl {
            guard given != "off", let colon = given.lastIndex(of: ":"), let port = Int(given[given.index(after: colon)...])
            else { return nil }
            return (String(given[..<colon]), port)
        }
        guard outputs.contains(.snapcast) else { return nil }
        if snapcast.hasPrefix("tcp://"), let address = snapcast.dropFirst(6).split(separator: "/").first,
            let colon = address.lastIndex(of: ":")
        {
            return (String(address[..<colon]), 1705)
        }
        return ("127.0.0.1", 1705)
    }
}

/// A configuration mistake, said the way a person can fix it: `clickwheel.yaml:4:11: 'volume' must be 0–100`.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Where: `FILE:LINE:COLUMN`, `environment CLICKWHEEL_X` or `--flag`.
    public var location: String
    public var message: String

    public init(_ location: String, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
