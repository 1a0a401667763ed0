/// Settings → Sleep Timer: when playback pauses by itself (as on an iPod). Session state, never stored.
public enum SleepTimer: Hashable, Sendable {
    /// Pause at this time.
    case at(Timestamp)
    /// Pause when the current track ends (the next one waits, paused at its start).
    case endOfTrack
}

/// One row of the Sleep Timer menu.
public enum SleepChoice: Hashable, Sendable {
    case off
    case minutes(Int)
    case endOfTrack

    /// The rows, in order: Off, 15, 30, 60, 90, 120 minutes, End of Track.
    public static let all: [SleepChoice] = [.off] + [15, 30, 60, 90, 120].map { .minutes($0) } + [.endOfTrack]

    /// The row's label.
    public var title: String {
        switch self {
        case .off: "Off"
        case .minutes(let m): "\(m) Minutes"
        case .endOfTrack: "End of Track"
        }
    }
}

/// Settings → Shut Down / Restart: what the shell's configured command does to the machine.
public enum PowerAction: String, Hashable, Sendable {
    case shutDown, restart

    /// The menu row's and the confirmation screen's label.
    public var title: String {
        switch self {
        case .shutDown: "Shut Down"
        case .restart: "Restart"
        }
    }
}
