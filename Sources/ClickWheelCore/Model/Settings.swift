/// The user's settings: what Settings shows and what is persisted between runs.
///
/// Plain data; the engine changes it and emits `Effect.persist` with the new value.
public struct Settings: Hashable, Sendable, Codable {
    public enum Shuffle: Int, CaseIterable, Hashable, Sendable, Codable { case off, songs, albums }
    public enum Repeat: Int, CaseIterable, Hashable, Sendable, Codable { case off, one, all }
    public enum Clicker: Int, CaseIterable, Hashable, Sendable, Codable { case off, quiet, loud }
    public enum Acceleration: Int, CaseIterable, Hashable, Sendable, Codable { case off, normal, fast }

    public var shuffle: Shuffle = .off
    public var repeatMode: Repeat = .off
    public var clicker: Clicker = .quiet
    /// Seconds the backlight stays on after the last input; 0 means always on.
    public var backlightSeconds: Int = 10
    public var soundCheck: Bool = false
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
    /// Settings → Audiobooks: the speed podcasts and audiobooks play at, in percent (`SpokenWordSpeed`).
    public var spokenWordSpeed: Int = 100

    public init() {}
}

extension Settings {
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
        try take(.volumeLimit, &volumeLimit)
        try take(.acceleration, &acceleration)
        try take(.showMusic, &showMusic)
        try take(.showPodcasts, &showPodcasts)
        try take(.showShuffleSongs, &showShuffleSongs)
        try take(.volume, &volume)
        try take(.resumePlaying, &resumePlaying)
        try take(.spokenWordSpeed, &spokenWordSpeed)
    }
}

/// One row of Settings whose value cycles when selected, declared as data.
public enum SettingKey: CaseIterable, Hashable, Sendable {
    case shuffle, repeatMode, clicker, backlight, soundCheck, volumeLimit, acceleration
    case mainMusic, mainPodcasts, mainShuffleSongs
    case resumePlaying

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
        }
    }

    /// The labels of the values, in cycling order.
    public var choices: [String] {
        switch self {
        case .shuffle: ["Off", "Songs", "Albums"]
        case .repeatMode: ["Off", "One", "All"]
        case .clicker: ["Off", "Quiet", "Loud"]
        case .backlight: Self.backlightValues.map { $0 == 0 ? "Always" : "\($0) s" }
        case .soundCheck, .mainMusic, .mainPodcasts, .mainShuffleSongs, .resumePlaying: ["Off", "On"]
        case .volumeLimit: Self.volumeLimitValues.map { $0 == 100 ? "Off" : "\($0)%" }
        case .acceleration: ["Off", "Normal", "Fast"]
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
        }
        return s
    }
}
