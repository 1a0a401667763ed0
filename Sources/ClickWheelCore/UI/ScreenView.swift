/// What one screen shows, before layout: the engine builds it, the renderer lays it out on a display.
public enum ScreenView: Hashable, Sendable {
    case list(ListView)
    case nowPlaying(NowPlayingView)
    /// A title and fixed lines (About, the lock screen).
    case text(title: String, lines: [String])
    /// Extras → Clock and the ringing alarm: the time in big digits.
    case clock(ClockView)
    /// A level set with the wheel (Speakers → a room's volume): a title, its value, a bar.
    case level(LevelView)
}

/// A level on the wheel: the title with the value at the right, then the bar (Now Playing's volume bar).
public struct LevelView: Hashable, Sendable {
    public var title: String
    /// "40%", "Off"…
    public var value: String
    /// 0…1.
    public var fraction: Double

    public init(title: String, value: String, fraction: Double) {
        self.title = title
        self.value = value
        self.fraction = fraction
    }
}

/// The Clock: the time in big digits, the date under it and the next alarm where there is room.
public struct ClockView: Hashable, Sendable {
    /// Nil while the engine has no wall time yet (drawn as "--:--").
    public var time: LocalTime?
    public var twentyFour: Bool
    /// The next alarm's time ("07:00"), nil when none is set.
    public var nextAlarm: String?
    /// The ringing alarm's banner ("Alarm 07:00"), shown instead of the date.
    public var ringing: String?

    public init(time: LocalTime?, twentyFour: Bool, nextAlarm: String? = nil, ringing: String? = nil) {
        self.time = time
        self.twentyFour = twentyFour
        self.nextAlarm = nextAlarm
        self.ringing = ringing
    }
}

/// The state icons of a title row.
public struct StatusIcons: Hashable, Sendable {
    public var status: Player.Status
    public var locked: Bool

    public init(status: Player.Status = .stopped, locked: Bool = false) {
        self.status = status
        self.locked = locked
    }
}

/// One line of a list.
public struct ListLine: Hashable, Sendable {
    public var text: String
    /// A value shown at the right (a setting's value, a show's unplayed count).
    public var trailing: String?
    /// True when selecting the line opens another list (drawn as ›).
    public var submenu: Bool
    /// A mark drawn before the text (the unplayed dot).
    public var mark: Glyph?
    /// A rating (0…10, `Rating`) drawn at the right as five stars.
    public var stars: Int?

    public init(
        _ text: String, trailing: String? = nil, submenu: Bool = false, mark: Glyph? = nil, stars: Int? = nil
    ) {
        self.stars = stars
        self.text = text
        self.trailing = trailing
        self.submenu = submenu
        self.mark = mark
    }
}

/// A list screen: the lines around the cursor and where the cursor is.
public struct ListView: Hashable, Sendable {
    public var title: String
    public var icons: StatusIcons
    /// Number of lines of the whole list.
    public var total: Int
    public var cursor: Int
    /// Index of the first line of `lines` in the whole list.
    public var top: Int
    public var lines: [ListLine]
    /// Shown instead of the lines when the list is empty ("No Songs", "Scanning… 1234").
    public var emptyText: String
    /// When the cursor last moved (the marquee starts from it).
    public var selectedSince: Timestamp
    /// The initial letter shown during a fast spin, nil otherwise.
    public var letter: Character?

    public init(
        title: String, icons: StatusIcons, total: Int, cursor: Int, top: Int, lines: [ListLine],
        emptyText: String = "", selectedSince: Timestamp = .zero, letter: Character? = nil
    ) {
        self.title = title
        self.icons = icons
        self.total = total
        self.cursor = cursor
        self.top = top
        self.lines = lines
        self.emptyText = emptyText
        self.selectedSince = selectedSince
        self.letter = letter
    }
}

/// The Now Playing screen.
public struct NowPlayingView: Hashable, Sendable {
    /// What replaces the progress line for a while or in a mode.
    public enum Overlay: Hashable, Sendable {
        case volume(Int)
        case scrubbing
        case setting(name: String, value: String)
        case rating(Int)
    }

    public var position: Int
    public var count: Int
    public var title: String
    public var artist: String
    public var album: String
    public var elapsedMS: Int
    public var durationMS: Int
    public var icons: StatusIcons
    public var shuffle: Settings.Shuffle
    public var repeatMode: Settings.Repeat
    public var overlay: Overlay?
    /// When the track started showing (marquees and the artist/album alternation start from it).
    public var since: Timestamp
    /// The title of the chapter playing, for a file with chapters (nil otherwise).
    public var chapter: String?
    /// Playing, but no enabled audio output can play: the outputs that cannot (empty: all are turned
    /// off). It takes the progress line's place (a clock standing at 0:00 would say nothing); nil otherwise.
    public var noOutput: [String]?

    public init(
        position: Int, count: Int, title: String, artist: String, album: String, elapsedMS: Int, durationMS: Int,
        icons: StatusIcons, shuffle: Settings.Shuffle = .off, repeatMode: Settings.Repeat = .off,
        overlay: Overlay? = nil, since: Timestamp = .zero, chapter: String? = nil, noOutput: [String]? = nil
    ) {
        self.chapter = chapter
        self.noOutput = noOutput
        self.position = position
        self.count = count
        self.title = title
        self.artist = artist
        self.album = album
        self.elapsedMS = elapsedMS
        self.durationMS = durationMS
        self.icons = icons
        self.shuffle = shuffle
        self.repeatMode = repeatMode
        self.overlay = overlay
        self.since = since
    }
}
