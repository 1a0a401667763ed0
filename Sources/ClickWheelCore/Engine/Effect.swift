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
    case rate(TrackID, stars: Int)
    /// Start a library rescan.
    case rescanLibrary
    /// Switch the display's backlight.
    case backlight(on: Bool)
    /// The queue or the play state changed (MPD's idle `playlist` / `player` / `mixer` / `options`).
    case notify(Subsystem)

    /// What changed, for listeners (MPD idle subsystems).
    public enum Subsystem: String, Hashable, Sendable {
        case playlist, player, mixer, options, storedPlaylist = "stored_playlist"
    }
}
