/// The sleep timer, Shut Down / Restart and the Goodbye screen.
extension Engine {
    /// How long "Sleep Timer / Paused" shows when the timer ran out, milliseconds.
    static let sleepNoticeMS: Int64 = 3000

    /// Sets the sleep timer from the Sleep Timer menu and goes back to Settings.
    mutating func setSleep(_ choice: SleepChoice) -> [Effect] {
        let wasEndOfTrack = sleepTimer == .endOfTrack
        switch choice {
        case .off: sleepTimer = nil
        case .minutes(let m): sleepTimer = .at(now.adding(ms: Int64(m) * 60_000))
        case .endOfTrack: sleepTimer = .endOfTrack
        }
        _ = back()
        // The playback shell hands the following track to the audio thread early (gapless); the same
        // queue again makes it ask `entry(after:)` anew, which says "nothing" while End of Track is set.
        guard wasEndOfTrack != (sleepTimer == .endOfTrack), player.hasCurrent else { return [] }
        return [.playback(.replaceQueue(player.queue, current: player.current))]
    }

    /// The Sleep Timer row's value: Off, the minutes left rounded up ("15m"), or End (of track).
    func sleepLabel() -> String {
        switch sleepTimer {
        case nil: return "Off"
        case .endOfTrack: return "End"
        case .at(let t): return "\((max(0, t.milliseconds(since: now)) + 59_999) / 60_000)m"
        }
    }

    /// On every tick: a timed sleep that is due pauses playback.
    mutating func expireSleep() -> [Effect] {
        if let until = screen.sleepNoticeUntil, now >= until { screen.sleepNoticeUntil = nil }
        guard case .at(let t) = sleepTimer, now >= t else { return [] }
        sleepTimer = nil
        screen.sleepNoticeUntil = now.adding(ms: Self.sleepNoticeMS)
        guard player.hasCurrent, player.status == .playing else { return [] }
        return playPause()
    }

    /// End of Track, when entry `index` finished: what follows becomes current, paused at its start
    /// (Play/Pause carries on). Nil when End of Track is not set or nothing follows (then the queue
    /// ends as usual).
    mutating func sleepAtEndOfTrack(after index: Int) -> [Effect]? {
        guard sleepTimer == .endOfTrack else { return nil }
        sleepTimer = nil
        screen.sleepNoticeUntil = now.adding(ms: Self.sleepNoticeMS)
        guard let next = entry(after: index), player.entries.indices.contains(next) else { return nil }
        player.current = next
        player.status = .paused
        player.elapsedMS = 0
        queue.currentTrack = nil
        screen.nowPlayingSince = now
        // The audio thread stopped after the track: Play/Pause loads the entry (as after a restore).
        resume.shellEmpty = true
        var effects: [Effect] = [.notify(.player)]
        if player.consume { effects += consumeEntry(index) }
        return effects
    }

    /// Settings → Shut Down / Restart, confirmed: the shell runs the configured command.
    mutating func power(_ action: PowerAction) -> [Effect] {
        _ = back()
        return [.power(action)]
    }
}
