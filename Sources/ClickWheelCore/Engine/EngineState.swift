/// The engine's screen beyond the menu stack: Now Playing's mode, the timed notices over it, the
/// backlight, and the renderer that turns a view into a frame.
public struct ScreenState: Sendable {
    /// Now Playing's mode (the centre button cycles it: scrub, rating, …).
    public internal(set) var nowPlayingMode = NowPlayingMode.normal
    var renderer: LCDRenderer
    /// Whether anything can see frames (`Engine.rendersFrames`).
    var rendersFrames = true
    /// When time alone may next change the frame (a marquee step…), as the renderer said: nil if never.
    var frameChangesAt: Timestamp?
    /// When the selected row last changed (a long title starts scrolling a while after).
    var selectedSince = Timestamp.zero
    /// When Now Playing was opened or its track changed.
    var nowPlayingSince = Timestamp.zero
    var backlightOn = true
    /// The service is stopping: the screen says Goodbye.
    var goodbye = false
    /// The timed notices, each shown until its time: the volume bar, the letter of a fast scroll, "Hold
    /// switch is on", the sleep timer's.
    var volumeShownUntil: Timestamp?
    var letterUntil: Timestamp?
    var lockNoticeUntil: Timestamp?
    var sleepNoticeUntil: Timestamp?

    init(renderer: LCDRenderer) { self.renderer = renderer }
}

/// The wheel and the buttons: gestures in progress, the scroll's acceleration, the hold switch.
public struct InputState: Sendable {
    var gestures: ButtonGestures
    var accelerator: WheelAccelerator
    /// When the last input came (the backlight and Now Playing's modes time out after it).
    var lastInput = Timestamp.zero
    /// The software hold switch.
    public internal(set) var locked = false

    init(gestures: ButtonGestures, accelerator: WheelAccelerator) {
        self.gestures = gestures
        self.accelerator = accelerator
    }
}

/// The play order's own state besides the queue in `Player`.
public struct PlayOrder: Sendable {
    /// The queue's song ids in list order, kept while shuffle is on so turning it off restores it.
    var unshuffledOrder: [Int]?
    /// The session's On-The-Go playlist.
    public internal(set) var onTheGo: [TrackID] = []
    /// Shuffle's generator (seeded by the configuration: a test's order is repeatable).
    var random: SplitMix64
    /// The current track's details, read once per track.
    var currentTrack: TrackInfo?

    init(random: SplitMix64) { self.random = random }
}

/// What the engine reads from the library once and keeps until the library or the track changes.
struct LibraryCaches: Sendable {
    /// Tracks indexed by the scan in progress (Settings → About shows it).
    var scanCount: Int?
    /// The current file's chapters (`Engine+Chapters`).
    var chapterCache: Engine.ChapterCache?
    /// Whether the library has audiobooks (Music shows Audiobooks), per library version.
    var audiobooksPresent: Bool?
    /// Settings → About's counts, per library version.
    var statistics: LibraryStatistics?
    /// The podcast episodes being downloaded (`Event.podcastDownloads`); not dropped by a library change.
    var podcastDownloads: [PodcastDownload] = []
    /// An effect of the last event changes a row's marks (a play counted, an episode finished or
    /// bookmarked: the New dot, the half circle, a book's share): the cached rows are dropped at the next
    /// event, once the shell has stored it (effects are carried out after `handle` returns).
    var marksStale = false
}
