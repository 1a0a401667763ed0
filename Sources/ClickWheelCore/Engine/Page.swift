/// One screen on the menu stack, with its cursor.
public struct Page: Hashable, Sendable {
    public var destination: Destination
    /// The selected line (header rows first, then library rows).
    public var cursor = 0
    /// The first visible line.
    public var top = 0
    /// The library row id under the cursor, to find it again when the library changes.
    public var anchor: Int64?

    public init(_ destination: Destination) {
        self.destination = destination
    }
}

/// The Now Playing screen's centre-click modes, in cycling order.
public enum NowPlayingMode: CaseIterable, Hashable, Sendable {
    case normal, scrubbing, shuffle, repeatMode, rating

    /// The mode after a centre click.
    var next: NowPlayingMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// How the engine is set up: display, charset, timings, keymap.
public struct EngineConfiguration: Sendable {
    public var geometry: DisplayGeometry
    public var charset: TextCharset
    public var keymap: Keymap
    /// How long a press must last to be a hold, milliseconds.
    public var holdMS: Int64
    /// Degrees of wheel travel per step (15 for a 24-detent encoder or an iPod wheel).
    public var degreesPerStep: Double
    /// Shown in Settings → About.
    public var version: String
    /// Seeds the shuffles (fixed in tests, random in the executable).
    public var shuffleSeed: UInt64
    /// Podcasts starts with a Refresh row (`Effect.refreshPodcasts`): the service fetches subscriptions.
    public var podcastRefresh = false

    public init(
        geometry: DisplayGeometry, charset: TextCharset = .utf8, keymap: Keymap = .ipod, holdMS: Int64 = 600,
        degreesPerStep: Double = 15, version: String = "0.1", shuffleSeed: UInt64 = 1
    ) {
        self.geometry = geometry
        self.charset = charset
        self.keymap = keymap
        self.holdMS = holdMS
        self.degreesPerStep = degreesPerStep
        self.version = version
        self.shuffleSeed = shuffleSeed
    }
}
