public import ClickWheelCore
public import Library
public import Playback

/// Where the engine loop sends playback: the real player (`PlaybackShell`) or a test's recording.
///
/// Thread rules: called on the engine loop's queue only.
public protocol PlaybackPort: AnyObject {
    /// Carries out one of the engine's playback commands; `following(i)` is the entry that plays after
    /// entry `i` (the engine's rule), for handing the player the next track early.
    func perform(_ command: PlaybackCommand, following: (Int) -> Int?)
    /// A report of the audio player in the engine's terms; nil when the engine need not hear it.
    func translate(_ event: PlayerEvent) -> PlaybackReport?
    /// Sound Check on or off (Settings → Sound Check), with the album's gain (`Settings.usesAlbumGain`)
    /// or the track's.
    func setSoundCheck(_ on: Bool, album: Bool)
    /// The wheel's click at `volume` (0–100).
    func click(volume: Int)
}

/// The library database's stores the engine loop writes through; nil: not kept (a test's loop).
public struct EngineStores: Sendable {
    public var settings: SettingsStore?
    public var resume: ResumeStore?
    public var playState: PlayStateStore?
    /// The scrobble log (`scrobble_log`); nil: not configured.
    public var scrobbles: ScrobbleLog?

    public init(
        settings: SettingsStore? = nil, resume: ResumeStore? = nil, playState: PlayStateStore? = nil,
        scrobbles: ScrobbleLog? = nil
    ) {
        self.settings = settings
        self.resume = resume
        self.playState = playState
        self.scrobbles = scrobbles
    }
}
