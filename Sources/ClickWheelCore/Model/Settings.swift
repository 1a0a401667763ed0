/// The user's settings: what Settings shows and what is persisted between runs.
///
/// Plain data; the engine changes it and emits `Effect.persist` with the new value.
public struct Settings: Hashable, Sendable, Codable {
    public enum Shuffle: Int, CaseIterable, Hashable, Sendable, Codable { case off, songs, albums }
    public enum Repeat: Int, CaseIterable, Hashable, Sendable, Codable { case off, one, all }
    public enum Clicker: Int, CaseIterable, Hashable, Sendable, Codable { case off, quiet, loud }
    public enum Acceleration: Int, CaseIterable, Hashable, Sendable, Codable { case off, normal, fast }
    /// Which gain Sound Check applies (MPD's `replay_gain_mode` but off): the track's, the album's, or
    /// the album's while the queue plays in order (shuffle off or by albums) and the track's otherwise.
    public enum SoundCheckGain: String, CaseIterable, Hashable, Sendable, Codable { case track, album, auto }

    public var shuffle: Shuffle = .off
    public var repeatMode: Repeat = .off
    public var clicker: Clicker = .quiet
    /// Seconds the backlight stays on after the last input; 0 means always on.
    public var backlightSeconds: Int = 10
    public var soundCheck: Bool = false
    /// The gain Sound Check applies when it is on (set over the control socket; the device's switch
    /// keeps it).
    public var soundCheckGain: SoundCheckGain = .track
    /// The highest volume the wheel may set, 0…100 (100 = no limit).
    public var volumeLimit: Int = 100
    public var acceleration: Acceleration = .normal
    /// Optional rows of the main menu (Settings is always there).
    public var showMusic: Bool = true
    public var showPodcasts: Bool = true
    public var showShuffleSongs: Bool = true
    /// The output volume, 0…100.
    public var volume: Int = 50
    /// After a restart, carry on playing what was playing (off: it comes back paused, as on an iPod).
    public var resumePlaying: Bool = false
    /// Rows of the Music menu that Settings → Music Menu hides (their screens stay reachable over the
    /// control socket: `screen NAME`).
    public var hiddenMusicItems: Set<MusicMenuItem> = []
    /// Artists lists the artists whose every song is on a compilation (Various Artists, …) too; off,
    /// as on the iPod, compilations are found under Music → Compilations.
    public var compilationsInArtists: Bool = false
    /// Settings → Date & Time: a 24-hour clock (off: 12-hour with AM/PM).
    public var clock24h: Bool = true
    /// Extras → Alarms (kept here so they are stored with every change: see `Alarm`).
    public var alarms: [Alarm] = []
    /// Settings → Audiobooks: the speed podcasts and audiobooks play at, in percent (`SpokenWordSpeed`).
    public var spokenWordSpeed: Int = 100
    /// MPD's `crossfade`: seconds the end of a track overlaps the start of the next (0: gapless).
    public var crossfadeSeconds: Int = 0
    /// MPD's `mixrampdb` and `mixrampdelay` (seconds; MixRamp is on only while it is above 0), stored and
    /// shown as MPD does. MixRamp needs MIXRAMP tags the index does not keep: without them MPD, and so
    /// ClickWheel, crossfades plainly by `crossfadeSeconds`. Either may be nan or infinite, as in MPD.
    public var mixRampDB: Double = 0
    public var mixRampDelay: Double = -1

    public init() {}
}

extension Settings {
    /// MPD's `replay_gain_mode`: off, or the gain Sound Check applies.
    public var replayGainMode: String {
        get { soundCheck ? soundCheckGain.rawValue : "off" }
        set {
            soundCheck = newValue != "off"
            if let gain = SoundCheckGain(rawValue: newValue) { soundCheckGain = gain }
        }
    }

    /// Whether Sound Check uses the album's gain now (album mode, or auto while the queue plays in order).
    public var usesAlbumGain: Bool {
        soundCheckGain == .album || (soundCheckGain == .auto && shuffle != .songs)
    }

    /// Decodes stored settings, taking the default for each key that is missing (settings stored by an
    /// older build keep their values when a setting is added). Add new settings here too.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func take<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: key) { value = v }
        }
        try take(.shuffle, &shuffle)
        try take(.repeatMode, &repeatMode)
        try take(.clicker, &clicker)
        try take(.backlightSeconds, &backlightSeconds)
        try take(.soundCheck, &soundCheck)
        try take(.soundCheckGain, &soundCheckGain)
        try take(.volumeLimit, &volumeLimit)
        try take(.acceleration, &acceleration)
        try take(.showMusic, &showMusic)
        try take(.showPodcasts, &showPodcasts)
        try take(.showShuffleSongs, &showShuffleSongs)
        try take(.volume, &volume)
        try take(.resumePlaying, &resumePlaying)
        // By name, one by one: a row a newer build stored and this one lacks is dropped, not the settings.
        if let names = try c.decodeIfPresent([String].self, forKey: .hiddenMusicItems) {
            hiddenMusicItems = Set(names.compactMap(MusicMenuItem.init(rawValue:)))
        }
        try take(.compilationsInArtists, &compilationsInArtists)
        try take(.clock24h, &clock24h)
        try take(.alarms, &alarms)
        try take(.spokenWordSpeed, &spokenWordSpeed)
        try take(.crossfadeSeconds, &crossfadeSeconds)
        try take(.mixRampDB, &mixRampDB)
        try take(.mixRampDelay, &mixRampDelay)
    }
}

/// The rows of the Music menu, in the iPod's order; Settings → Music Menu shows or hides each (the
/// one place a new Music row is declared: its title here, its screen in `MenuCatalog.destination(of:)`).
public enum MusicMenuItem: String, CaseIterable, Hashable, Sendable, Codable {
    case playlists, artists, albums, compilations, songs, genres, composers, audiobooks, search

    public var title: String {
        switch self {
        case .playlists: "Playlists"
        case .artists: "Artists"
        case .albums: "Albums"
        case .compilations: "Compilations"
        case .songs: "Songs"
        case .genres: "Genres"
        case .composers: "Composers"
        case .audiobooks: "Audiobooks"
        case .search: "Search"
        }
    }
}

/// One row of Settings whose value cycles when selected, declared as data.
public enum SettingKey: Hashable, Sendable {
    case shuffle, repeatMode, clicker, backlight, soundCheck, volumeLimit, acceleration
    case mainMusic, mainPodcasts, mainShuffleSongs
    case resumePlaying
    /// Settings → Music Menu: whether a row of the Music menu shows.
    case musicMenu(MusicMenuItem)
    /// Settings → Music Menu → Comps in Artists.
    case compilationsInArtists
    case clock24h

    /// The row's label.
    public var title: String {
        switch self {
        case .shuffle: "Shuffle"
        case .repeatMode: "Repeat"
        case .clicker: "Clicker"
        case .backlight: "Backlight"
        case .soundCheck: "Sound Check"
        case .volumeLimit: "Volume Limit"
        case .acceleration: "Scroll Accel"
        case .mainMusic: "Music"
        case .mainPodcasts: "Podcasts"
        case .mainShuffleSongs: "Shuffle Songs"
        case .resumePlaying: "Resume Playing"
        case .musicMenu(let item): item.title
        case .compilationsInArtists: "Comps in Artists"
        case .clock24h: "Time"
        }
    }

    /// The labels of the values, in cycling order.
    public var choices: [String] {
        switch self {
        case .shuffle: ["Off", "Songs", "Albums"]
        case .repeatMode: ["Off", "One", "All"]
        case .clicker: ["Off", "Quiet", "Loud"]
        case .backlight: Self.backlightValues.map { $0 == 0 ? "Always" : "\($0) s" }
        case .soundCheck, .mainMusic, .mainPodcasts, .mainShuffleSongs, .resumePlaying, .musicMenu,
            .compilationsInArtists:
            ["Off", "On"]
        case .volumeLimit: Self.volumeLimitValues.map { $0 == 100 ? "Off" : "\($0)%" }
        case .acceleration: ["Off", "Normal", "Fast"]
        case .clock24h: ["12-hour", "24-hour"]
        }
    }

    static let backlightValues = [2, 5, 10, 15, 20, 0]
    static let volumeLimitValues = [100, 90, 80, 70, 60, 50, 40]

    /// Which choice `settings` holds now.
    public func choiceIndex(in settings: Settings) -> Int {
        switch self {
        case .shuffle: settings.shuffle.rawValue
        case .repeatMode: settings.repeatMode.rawValue
        case .clicker: settings.clicker.rawValue
        case .backlight: Self.backlightValues.firstIndex(of: settings.backlightSeconds) ?? 2
        case .soundCheck: settings.soundCheck ? 1 : 0
        case .volumeLimit: Self.volumeLimitValues.firstIndex(of: settings.volumeLimit) ?? 0
        case .acceleration: settings.acceleration.rawValue
        case .mainMusic: settings.showMusic ? 1 : 0
        case .mainPodcasts: settings.showPodcasts ? 1 : 0
        case .mainShuffleSongs: settings.showShuffleSongs ? 1 : 0
        case .resumePlaying: settings.resumePlaying ? 1 : 0
        case .musicMenu(let item): settings.hiddenMusicItems.contains(item) ? 0 : 1
        case .compilationsInArtists: settings.compilationsInArtists ? 1 : 0
        case .clock24h: settings.clock24h ? 1 : 0
        }
    }

    /// `settings` with choice `index` (taken modulo the number of choices) applied.
    public func applying(choice index: Int, to settings: Settings) -> Settings {
        var s = settings
        let i = ((index % choices.count) + choices.count) % choices.count
        switch self {
        case .shuffle: s.shuffle = Settings.Shuffle(rawValue: i) ?? .off
        case .repeatMode: s.repeatMode = Settings.Repeat(rawValue: i) ?? .off
        case .clicker: s.clicker = Settings.Clicker(rawValue: i) ?? .off
        case .backlight: s.backlightSeconds = Self.backlightValues[i]
        case .soundCheck: s.soundCheck = i == 1
        case .volumeLimit:
            s.volumeLimit = Self.volumeLimitValues[i]
            s.volume = min(s.volume, s.volumeLimit)
        case .acceleration: s.acceleration = Settings.Acceleration(rawValue: i) ?? .off
        case .mainMusic: s.showMusic = i == 1
        case .mainPodcasts: s.showPodcasts = i == 1
        case .mainShuffleSongs: s.showShuffleSongs = i == 1
        case .resumePlaying: s.resumePlaying = i == 1
        case .musicMenu(let item):
            if i == 1 { s.hiddenMusicItems.remove(item) } else { s.hiddenMusicItems.insert(item) }
        case .compilationsInArtists: s.compilationsInArtists = i == 1
        case .clock24h: s.clock24h = i == 1
        }
        return s
    }
}
