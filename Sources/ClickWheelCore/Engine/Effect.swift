/// What the engine asks its shells to do; they carry effects out in order.
public enum Effect: Hashable, Sendable {
    /// Show this frame (only emitted when it differs from the last one).
    case render(Frame)
    /// Tell playback.
    case playback(PlaybackCommand)
    /// Play the wheel click at this strength.
    case click(Settings.Clicker)
    /// Store these settings.
    case persist(Settings)
    /// Store a track's rating, 0…5.
    case rate(TrackID, rating: Int)
    /// Start a library rescan.
    case rescanLibrary
    /// Fetch every podcast subscription now (Podcasts → Refresh).
    case refreshPodcasts
    /// Switch the display's backlight.
    case backlight(on: Bool)
    /// The queue or the play state changed (MPD's idle `playlist` / `player` / `mixer` / `options`).
    case notify(Subsystem)
    /// Store where playback stands, for resume after a power cut (the store stamps the time).
    case checkpoint(ResumeState)
    /// A track was played (past 50 % or 4 minutes, or to its end): count it and stamp `last_played` with
    /// the wall clock. `atMS`: its position when it counted (its length when it played to its end), so a
    /// scrobble log can work back when the play-through began.
    case played(TrackID, atMS: Int)
    /// A track was left before 10 % of it played: count a skip. `atMS`: the last position seen.
    case skipped(TrackID, atMS: Int)
    /// Remember a podcast's or audiobook's place (the store stamps the time); 0 forgets it.
    case bookmark(TrackID, ms: Int)
    /// An episode was listened to (past 95 %): mark it played and forget its place.
    case episodeFinished(TrackID)
    /// Settings → Shut Down / Restart was confirmed: run the configured command.
    case power(PowerAction)
    /// Settings → Wheel started (on) or stopped (off) measuring: forward every input device's raw
    /// events as `Event.rawInput` meanwhile (the decoded input keeps coming too).
    case rawInput(on: Bool)
    /// Settings → Wheel was saved: write the findings into the configuration file (the keys of
    /// `clickwheel calibrate --write`), apply them to the running decoders, answer with `Event.wheelSaved`.
    case saveWheel(CalibrationResult)

    /// Main menu → Speakers: mute or unmute a room, set its volume, switch the Pi's own output.
    case speakers(SpeakerCommand)

    /// Log this line (an alarm missed on an unsynchronised clock: said once).
    case log(String)
    /// Play the alarm tone's beep at this volume, 0…100 (the click path: see `Engine+Alarms`).
    case alarmTone(volume: Int)

    /// What changed, for listeners (MPD idle subsystems).
    public enum Subsystem: String, Hashable, Sendable {
        case playlist, player, mixer, options, storedPlaylist = "stored_playlist"
    }
}

extension Effect {
    /// True for the effects that change what a list row shows of a track's play state (`unplayed`,
    /// `partlyPlayed`, a book's progress).
    var changesListMarks: Bool {
        switch self {
        case .played, .episodeFinished, .bookmark: true
        default: false
        }
    }
}
