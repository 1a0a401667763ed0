/// Decides when a display's backlight goes dark and what the input that wakes it does: nothing.
///
/// After `timeoutMS` without input the backlight goes off (`tick` says so once). The first input
/// after that only switches it back on and is not delivered — like an iPod, a turn or press in the
/// dark does not act on an item the user cannot see; for a button, its release is swallowed too, so
/// the engine never sees half a press. A timeout of 0 keeps the light on. Pure; the shell feeds it
/// every decoded input event and its timer ticks, on the engine loop.
public struct BacklightTimer: Hashable, Sendable {
    /// Milliseconds of inactivity before the backlight goes off; 0 means never.
    public var timeoutMS: Int64
    /// Whether the backlight is on now.
    public private(set) var isOn = true
    private var lastInput: Timestamp
    private var swallowRelease: Button?

    /// What to do with one input event.
    public struct Decision: Hashable, Sendable {
        /// Pass the event on to the engine.
        public var deliver: Bool
        /// Switch the backlight on now (the event woke the display).
        public var switchOn: Bool

        public init(deliver: Bool, switchOn: Bool) {
            self.deliver = deliver
            self.switchOn = switchOn
        }
    }

    public init(timeoutSeconds: Int, now: Timestamp) {
        timeoutMS = Int64(max(0, timeoutSeconds)) * 1000
        lastInput = now
    }

    /// Feeds one input event: delivered, or swallowed because it only woke the display.
    public mutating func input(_ event: InputEvent) -> Decision {
        let time: Timestamp
        switch event {
        case .wheel(_, let t), .button(_, _, let t): time = t
        }
        lastInput = max(lastInput, time)
        if case .button(let b, .up, _) = event, b == swallowRelease {
            swallowRelease = nil
            return Decision(deliver: false, switchOn: false)
        }
        guard !isOn else { return Decision(deliver: true, switchOn: false) }
        isOn = true
        if case .button(let b, .down, _) = event { swallowRelease = b }
        return Decision(deliver: false, switchOn: true)
    }

    /// Advances time; true exactly when the backlight must go off now.
    public mutating func tick(at time: Timestamp) -> Bool {
        guard isOn, timeoutMS > 0, time.milliseconds(since: lastInput) >= timeoutMS else { return false }
        isOn = false
        return true
    }

    /// Settings changed the timeout (the idle time so far counts against the new one).
    public mutating func setTimeout(seconds: Int) {
        timeoutMS = Int64(max(0, seconds)) * 1000
    }
}
