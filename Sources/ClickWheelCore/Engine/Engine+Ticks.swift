/// When time passing changes something: the shell sets its tick timer for the next such moment only,
/// so an idle service (a still menu, the backlight off) wakes no CPU at all, and a playing one wakes for
/// what the screen really shows (a marquee step, the artist/album turn), not ten times a second.
extension Engine {
    /// How often ticks come while Settings → Wheel measures, milliseconds.
    static let busyTickMS: Int64 = 100

    /// The soonest time at which a tick could change the model or the frame, or nil when none can:
    /// - when a button that is down becomes a hold or repeats; every 100 ms while Settings → Wheel measures;
    /// - the end of an overlay, notice, letter or Now Playing mode, the backlight's time-out, the sleep
    ///   timer (and the minute its menu label counts down);
    /// - the next step of what the renderer animates on the current frame (`frameChangesAt`);
    /// - each minute while an alarm or snooze is set or the Clock shows; the fade's steps and the tone's
    ///   beeps while an alarm rings (`Engine+Alarms`).
    /// Playback needs none: position reports arrive as events and carry the clock and the checkpoints.
    /// A time already past asks for a tick at once (the tick clears it).
    public func nextTick() -> Timestamp? {
        if screen.goodbye { return nil }
        var soonest: Timestamp?
        func consider(_ time: Timestamp?) {
            guard let time else { return }
            soonest = min(soonest ?? time, time)
        }
        if wheelSetup?.wantsTicks == true { consider(now.adding(ms: Self.busyTickMS)) }
        consider(input.gestures.nextDue)
        consider(screen.volumeShownUntil)
        consider(screen.letterUntil)
        consider(screen.lockNoticeUntil)
        consider(screen.sleepNoticeUntil)
        if screen.nowPlayingMode != .normal { consider(input.lastInput.adding(ms: Self.modeTimeoutMS)) }
        if screen.backlightOn && settings.backlightSeconds > 0 {
            consider(input.lastInput.adding(ms: Int64(settings.backlightSeconds) * 1000))
        }
        if case .at(let end) = sleepTimer {
            consider(end)
            // The Sleep Timer row shows the minutes left, rounded up: it changes as each minute ends.
            let left = end.milliseconds(since: now)
            if left > 0 { consider(now.adding(ms: (left - 1) % 60_000 + 1)) }
        }
        consider(screen.frameChangesAt)
        consider(alarmNextTick())
        return soonest
    }

    /// True while time can change anything (`nextTick()` is set).
    public func wantsTicks() -> Bool { nextTick() != nil }
}
