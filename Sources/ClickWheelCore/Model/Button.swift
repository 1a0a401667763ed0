/// The five buttons of a click wheel.
public enum Button: String, CaseIterable, Hashable, Sendable {
    case menu, select, playPause, next, previous
}

/// Whether a button went down or came up.
public enum ButtonPhase: Hashable, Sendable {
    case down, up
}
