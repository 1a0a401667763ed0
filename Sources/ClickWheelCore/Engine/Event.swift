/// Everything that can happen to the engine, each stamped with the time it happened.
public enum Event: Hashable, Sendable {
    /// Decoded wheel steps and button edges (from `WheelDecoder` or the keyboard).
    case input(InputEvent)
    /// Time passes (the shell's timer, e.g. every 100 ms): holds, marquees, overlays, backlight.
    case tick(Timestamp)
    /// What the playback shell reports.
    case playback(PlaybackReport, at: Timestamp)
    /// The library changed under the menus (after a scan): caches are dropped, cursors kept on their items.
    case libraryChanged(at: Timestamp)
    /// A scan is running and has seen `count` files (nil: it finished).
    case scanning(count: Int?, at: Timestamp)
    /// Settings restored or changed from outside (the control server).
    case settings(Settings, at: Timestamp)
    /// The wall clock reads `unixMS` at `at` (sent at start and now and then: the engine reads no clock).
    case wallClock(unixMS: Int64, at: Timestamp)
    /// The wall clock as the shell read it at `at` (with every tick and at start): local time, the
    /// clock's sync status, for Extras → Clock and Alarms (`Engine+Alarms`) and resume's stamps.
    case clock(WallClock, at: Timestamp)
    /// What was playing before the last stop or power cut, restored paused (see `Engine+Resume`).
    case restore(ResumeState, at: Timestamp)
    /// The service is stopping (SIGTERM/SIGINT): the screen shows Goodbye. Take `checkpointEffects()` first.
    case shutdown(at: Timestamp)
    /// One raw event of the input device `device` (its node), sent only while the engine asks for them
    /// (`Effect.rawInput(on:)`: Settings → Wheel measuring), before the decoded input it makes.
    case rawInput(RawInputEvent, device: String)
    /// How the shell carried out `Effect.saveWheel`.
    case wheelSaved(WheelSaveOutcome, at: Timestamp)
    /// The Snapcast rooms and the Pi's own output as the service now sees them (Main menu → Speakers).
    case speakers(Speakers, at: Timestamp)
    /// The episodes the podcast service is downloading now, with their progress (all of them, each
    /// time; empty when none is): shown under their shows (`Engine+PodcastDownloads`).
    case podcastDownloads([PodcastDownload], at: Timestamp)

    /// `steps` wheel steps at `time`.
    public static func wheel(_ steps: Int, at time: Timestamp) -> Event {
        .input(.wheel(steps: steps, at: time))
    }

    /// A button edge at `time`.
    public static func button(_ button: Button, _ phase: ButtonPhase, at time: Timestamp) -> Event {
        .input(.button(button, phase, at: time))
    }

    /// When the event happened.
    public var time: Timestamp {
        switch self {
        case .input(.wheel(_, let t)), .input(.button(_, _, let t)): t
        case .tick(let t), .playback(_, let t), .libraryChanged(let t), .scanning(_, let t), .settings(_, let t): t
        case .wallClock(_, let t), .clock(_, let t), .restore(_, let t), .shutdown(let t), .wheelSaved(_, let t): t
        case .rawInput(let raw, _): raw.time
        case .speakers(_, let t), .podcastDownloads(_, let t): t
        }
    }
}
