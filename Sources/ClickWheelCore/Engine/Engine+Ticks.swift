/// Whether time passing can change anything: the shell runs its tick timer only while it can, so an
/// idle service (a still menu, the backlight off, nothing playing) wakes no CPU at all.
extension Engine {
    /// True while a tick could change the model or the frame: a button is down (holds), an overlay,
    /// notice or Now Playing mode is waiting to time out, the backlight timer runs, a timed sleep is
    /// set, something plays, Now Playing is on screen, or the list on screen scrolls a long line
    /// (checked by rendering it a little later). Conservative: when in doubt, tick.
    public mutating func wantsTicks() -> Bool {
        if wheelSetup?.wantsTicks == true { return true }
        if gestures.anyDown || nowPlayingMode != .normal || player.status == .playing { return true }
        if volumeShownUntil != nil || letterUntil != nil || lockNoticeUntil != nil || sleepNoticeUntil != nil {
            return true
        }
        if backlightOn && settings.backlightSeconds > 0 { return true }
        if case .at = sleepTimer { return true }
        if goodbye { return false }
        let v = view()
        switch v {
        case .nowPlaying: return true
        case .text: return false
        case .list:
            // A marquee: the frame differs a step, a pause, or a pause and a step later.
            let m = renderer.marquee
            let current = renderer.render(v, now: now)
            return [m.stepMS, m.pauseMS, m.pauseMS + m.stepMS, m.pauseMS + 2 * m.stepMS].contains {
                renderer.render(v, now: now.adding(ms: $0)) != current
            }
        }
    }
}
