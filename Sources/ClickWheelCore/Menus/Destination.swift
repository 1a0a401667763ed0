/// Where a menu row leads: the screens of the menu stack, declared as values.
public indirect enum Destination: Hashable, Sendable {
    /// A fixed menu of the catalog.
    case menu(MenuID)
    /// A list read from the library (or the On-The-Go playlist), maybe with fixed rows on top.
    case list(ListScreen)
    case nowPlaying
    /// The context menu of a row (hold Select).
    case context(ContextTarget)
    /// Music → Search: a letter picker above the results.
    case search(SearchState)
    /// A song's Rate Song choices (from its context menu).
    case rating(ContextTarget)
    /// Extras → Clock.
    case clock
    /// An alarm's Time row: the wheel sets the hour, then the minutes.
    case alarmTime(AlarmTimeEdit)
    /// Speakers → a room's volume (by Snapcast client id): the wheel sets it.
    case speakerVolume(String)
}

/// The alarm time being set on the wheel: which alarm, the time so far, and whether the minutes are next.
public struct AlarmTimeEdit: Hashable, Sendable {
    public var alarmID: Int
    public var hour: Int
    public var minute: Int
    public var settingMinutes = false

    public init(alarmID: Int, hour: Int, minute: Int) {
        self.alarmID = alarmID
        self.hour = hour
        self.minute = minute
    }
}

/// What has been typed on the Search screen, and the letter the wheel points at.
public struct SearchState: Hashable, Sendable {
    /// The letters the wheel picks from; the last entry, "OK", moves to the results.
    public static let alphabet: [String] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".map { String($0) } + ["OK"]

    public var query = ""
    public var picker = 0

    public init(query: String = "", picker: Int = 0) {
        self.query = query
        self.picker = picker
    }

    /// The entry the wheel points at.
    public var picked: String { Self.alphabet[picker] }

    /// The editor line: the query and the picked entry in brackets.
    public var editorLine: String { query + "[" + picked + "]" }
}

/// The fixed menus.
public enum MenuID: Hashable, Sendable {
    case main, music, settings, mainMenuItems, about, resetSettings
    /// Settings → Sleep Timer's choices, and the confirmations of Shut Down and Restart.
    case sleepTimer, shutDown, restart
    /// Settings → Music Menu: which rows Music shows, and Comps in Artists.
    case musicMenuItems
    /// Main menu → Extras, its Alarms list, Settings → Date & Time.
    case extras, alarms, dateTime
    /// An alarm's editor, its Repeat choices, its chosen days and its Sound choices (by alarm id).
    case alarm(Int), alarmRepeat(Int), alarmDays(Int), alarmSound(Int)
    /// Settings → Audiobooks: the spoken-word speeds.
    case audiobooks
    /// The chapters of the file playing (Now Playing's context menu → Chapters); rows made by the engine.
    case chapters
    /// Main menu → Speakers: the Snapcast rooms and This Pi; rows made by the engine.
    case speakers
}

/// A list screen: its title, where its rows come from, and fixed rows above them ("All Albums").
public struct ListScreen: Hashable, Sendable {
    public var title: String
    public var source: ListSource
    public var header: [MenuItem]

    public init(title: String, source: ListSource, header: [MenuItem] = []) {
        self.title = title
        self.source = source
        self.header = header
    }
}

/// Where a list's rows come from.
public enum ListSource: Hashable, Sendable {
    case library(BrowseList)
    /// The session's On-The-Go playlist (kept by the engine).
    case onTheGo
}

/// What a context menu is about: a row, the list it sits in, and where Browse Album / Browse Artist
/// lead (resolved once when the menu opens, so drawing it reads nothing).
public struct ContextTarget: Hashable, Sendable {
    /// A library item to browse to: its row id and name.
    public struct Link: Hashable, Sendable {
        public var id: Int64
        public var title: String

        public init(id: Int64, title: String) {
            self.id = id
            self.title = title
        }
    }

    public var row: BrowseRow
    public var source: ListSource
    public var album: Link?
    public var artist: Link?

    public init(row: BrowseRow, source: ListSource, album: Link? = nil, artist: Link? = nil) {
        self.row = row
        self.source = source
        self.album = album
        self.artist = artist
    }
}

/// One row of a fixed menu.
public struct MenuItem: Hashable, Sendable {
    public var title: String
    public var action: MenuAction

    public init(_ title: String, _ action: MenuAction) {
        self.title = title
        self.action = action
    }

    /// True when selecting the row opens another screen (drawn with ›).
    public var opensSubmenu: Bool {
        if case .open(let d) = action, d != .nowPlaying, d != .clock { return true }
        return action == .calibrateWheel
    }
}

/// What selecting a fixed row does.
public enum MenuAction: Hashable, Sendable {
    case open(Destination)
    case shuffleSongs
    /// Cycle a setting's value in place (the value shows at the right).
    case setting(SettingKey)
    case rescanLibrary
    /// Podcasts → Refresh: fetch every subscription now.
    case refreshPodcasts
    case resetSettings
    /// A row that only shows something (About's counts).
    case none
    /// A podcast episode (or, under Podcasts, a show) being downloaded, with its progress label
    /// (`PodcastDownload.progressLabel`): shown, not playable (`Engine+PodcastDownloads`).
    case downloading(progress: String)
    /// Go back one screen.
    case back
    /// Context menu commands.
    case playNext(ContextTarget)
    case addToOnTheGo(ContextTarget)
    case clearOnTheGo
    /// Set the sleep timer (and go back).
    case sleep(SleepChoice)
    /// Shut down or restart the machine (the confirmation's row).
    case power(PowerAction)
    /// Settings → Wheel: the guided calibration (`WheelSetup`).
    case calibrateWheel
    /// Rate Song: sets a song's rating (0…10, `Rating`) and goes back.
    case rate(TrackID, rating: Int)
    /// Extras → Alarms (`Engine+AlarmEditor`): a new alarm, and an alarm's rows (by alarm id).
    case createAlarm
    case alarmEnabled(Int)
    case alarmDays(Int, days: Int)
    case alarmDay(Int, weekday: Int)
    case alarmSound(Int, Alarm.Sound)
    case alarmVolume(Int)
    case deleteAlarm(Int)
    /// Settings → Audiobooks: sets the spoken-word speed (percent) and goes back.
    case spokenWordSpeed(Int)
    /// Chapters: moves the current file to the start of chapter `index` and goes back to Now Playing.
    case seekChapter(Int)
    /// Speakers: switch a room (by Snapcast client id) on or off, or the Pi's own output.
    case speakerRoom(String)
    case thisPi
}
