/// Extras → Alarms: when alarms ring, and what ringing does. Pure: the wall clock comes as
/// `Event.clock` (with every tick the shell sends), never read here.
///
/// The schedule works in local minutes (minutes since 1970-01-01 00:00 local time), so a DST change is
/// a jump of the local clock like any other. The rule, checked at every clock sample and tick:
/// - an alarm rings for an occurrence (a local minute on one of its days) that lies in
///   (the last local minute seen, now]: once, since the alarm remembers the occurrence it rang for
///   (`Alarm.lastRungLocalMinute`) and a local minute seen again (the clock set back, the hour DST
///   repeats in autumn) does not ring it twice;
/// - the clock jumping forward (NTP stepping it, DST in spring) rings what the jump skipped, at once:
///   an alarm at 02:30 on the night the clock goes from 02:00 to 03:00 rings at 03:00 — unless the jump
///   is longer than `catchUpMinutes` (a machine that was suspended, a clock set by days): then what lay
///   more than that before now is logged as missed, not rung hours late;
/// - nothing rings on a clock the kernel has not synchronised since boot (a Pi has no RTC): an
///   occurrence passed on such a clock is logged once, and the first synchronised sample starts the
///   schedule afresh (a clock stepped from 1970 to today rings nothing it "skipped");
/// - a snooze rings at its Unix time (a DST change does not move it), on a synchronised clock only.
///
/// Ringing: the backlight comes on, playback starts at a tenth of the alarm's volume and rises in 1 s
/// steps over `fadeMS` to it (through the engine's volume, so MPD clients see `mixer`, the wheel carries
/// on from it, and a wheel turn during the fade stops it there). Select snoozes `snoozeMS`; Menu or
/// Play/Pause stops (pauses what plays). The tone is the click path's beep, once a second at the
/// fade's volume: no asset to install, no queue replaced, and it works with an empty library.
extension Engine {
    /// What the engine knows of the wall clock, and the alarm ringing now.
    public struct AlarmClock: Hashable, Sendable {
        /// The last sample and when (monotonic) it was taken.
        public internal(set) var wall: WallClock?
        var wallAt = Timestamp.zero
        /// The last local minute the schedule looked at (nil: none yet, or the sync status changed).
        var lastLocalMinute: Int64?
        var lastSynced = false
        /// The occurrence last logged as missed, per alarm id (logged once each).
        var missedLogged: [Int: Int64] = [:]
        /// The alarm ringing now.
        public internal(set) var ringing: Ringing?
    }

    /// An alarm ringing: its fade and its beeps.
    public struct Ringing: Hashable, Sendable {
        public var alarmID: Int
        /// "07:00" (as the clock shows times).
        public var label: String
        var startedAt: Timestamp
        var startVolume: Int
        var targetVolume: Int
        /// The volume the fade set last: when the volume is another, the user turned it and the fade stops.
        var lastVolume: Int
        var fading = true
        /// The tone beeps (no list to play, or Sound is Tone); the next beep is due then.
        var nextBeep: Timestamp?
    }

    static let fadeMS: Int64 = 30_000
    static let fadeStepMS: Int64 = 1000
    static let snoozeMS: Int64 = 9 * 60_000
    static let toneIntervalMS: Int64 = 1000
    /// How far back a forward jump of the clock still rings what it skipped, minutes.
    static let catchUpMinutes: Int64 = 180

    /// Local milliseconds now (from the last sample and the monotonic time since), nil before the first.
    var localNowMS: Int64? {
        alarmClock.wall.map { $0.localMS + now.milliseconds(since: alarmClock.wallAt) }
    }

    var unixNowMS: Int64? {
        alarmClock.wall.map { $0.unixMS + now.milliseconds(since: alarmClock.wallAt) }
    }

    /// True while the wall clock matters to the engine at every tick (an alarm or snooze is set, the Clock
    /// shows, an alarm rings): the shell then sends `Event.clock` with each tick, else about once a minute.
    public var wantsWallClock: Bool {
        alarmClock.ringing != nil || top.destination == .clock
            || settings.alarms.contains { $0.enabled || $0.snoozeUntilUnixMS != nil }
    }

    /// Local time now, nil before the shell sent the clock.
    public var localTime: LocalTime? { localNowMS.map(LocalTime.init(localMS:)) }

    /// A new sample of the wall clock: the schedule looks at the time it says.
    mutating func clockSample(_ clock: WallClock) -> [Effect] {
        alarmClock.wall = clock
        alarmClock.wallAt = now
        return checkAlarms()
    }

    /// On every tick: the fade's step, the tone's beep, and the schedule.
    mutating func alarmTick() -> [Effect] {
        var effects = fadeStep()
        effects += checkAlarms()
        return effects
    }

    /// When a tick is next needed: the next local minute while an alarm or snooze is set or the Clock
    /// shows; the fade's next step and the tone's next beep while ringing.
    func alarmNextTick() -> Timestamp? {
        var soonest: Timestamp?
        func consider(_ t: Timestamp?) { if let t { soonest = min(soonest ?? t, t) } }
        if let r = alarmClock.ringing {
            if r.fading {
                let elapsed = max(0, now.milliseconds(since: r.startedAt))
                consider(r.startedAt.adding(ms: (elapsed / Self.fadeStepMS + 1) * Self.fadeStepMS))
            }
            consider(r.nextBeep)
        }
        let wantsMinutes =
            top.destination == .clock || settings.alarms.contains { $0.enabled || $0.snoozeUntilUnixMS != nil }
        if wantsMinutes, let local = localNowMS {
            let intoMinute = ((local % 60_000) + 60_000) % 60_000
            consider(now.adding(ms: 60_000 - intoMinute))
        }
        if let unix = unixNowMS {
            for alarm in settings.alarms {
                // A snooze past on an unsynchronised clock waits for the sync (no tick at once, again and again).
                if let snooze = alarm.snoozeUntilUnixMS, snooze > unix || alarmClock.wall?.synced == true {
                    consider(now.adding(ms: max(0, snooze - unix)))
                }
            }
        }
        return soonest
    }

    /// Rings what is due (see the type's rule), logs what an unsynchronised clock missed.
    mutating func checkAlarms() -> [Effect] {
        guard let wall = alarmClock.wall, let local = localNowMS, let unix = unixNowMS else { return [] }
        let minute = LocalTime.floorDiv(local, 60_000)
        let synced = wall.synced
        defer {
            alarmClock.lastLocalMinute = minute
            alarmClock.lastSynced = synced
        }
        var effects: [Effect] = []
        var due: [(index: Int, occurrence: Int64?)] = []
        // The schedule's window: empty at the first sample, after a change of sync status, or when the
        // clock went back or stayed in the same minute (snoozes are still looked at).
        var last = minute
        if let l = alarmClock.lastLocalMinute, synced == alarmClock.lastSynced, minute > l { last = l }
        let from = max(last, minute - Self.catchUpMinutes)
        for (i, alarm) in settings.alarms.enumerated() {
            if alarm.enabled, let t = Self.latestOccurrence(of: alarm, after: last, upTo: minute),
                t != alarm.lastRungLocalMinute
            {
                if !synced || t <= from {
                    if alarmClock.missedLogged[alarm.id] != t {
                        alarmClock.missedLogged[alarm.id] = t
                        let why = synced ? "the clock jumped past it" : "the clock is not synchronised"
                        let time = clockText(hour: alarm.hour, minute: alarm.minute, twentyFour: true)
                        effects.append(.log("alarm \(time) missed: \(why)"))
                    }
                } else {
                    due.append((i, t))
                }
            } else if let snooze = alarm.snoozeUntilUnixMS, unix >= snooze {
                if synced { due.append((i, nil)) }
            }
        }
        guard !due.isEmpty else { return effects }
        // Every due alarm counts as rung (none rings later); the first one sounds.
        for d in due { markRung(d.index, occurrence: d.occurrence) }
        if alarmClock.ringing == nil { effects += ring(settings.alarms[due[0].index]) }
        effects.append(.persist(settings))
        return effects
    }

    /// The latest local minute in (`after`, `upTo`] on which `alarm` rings, nil when none.
    static func latestOccurrence(of alarm: Alarm, after: Int64, upTo: Int64) -> Int64? {
        let ofDay = Int64(alarm.hour * 60 + alarm.minute)
        var day = LocalTime.floorDiv(upTo, 1440)
        let firstDay = LocalTime.floorDiv(after, 1440)
        while day >= firstDay {
            let t = day * 1440 + ofDay
            if t > after && t <= upTo && alarm.rings(onWeekday: LocalTime.weekday(ofDay: day)) { return t }
            day -= 1
        }
        return nil
    }

    private mutating func markRung(_ index: Int, occurrence: Int64?) {
        var alarm = settings.alarms[index]
        if let occurrence {
            alarm.lastRungLocalMinute = occurrence
            if alarm.days == 0 { alarm.enabled = false }
        }
        alarm.snoozeUntilUnixMS = nil
        settings.alarms[index] = alarm
    }

    /// Starts ringing `alarm`: backlight, the sound, the fade from a tenth of its volume.
    mutating func ring(_ alarm: Alarm) -> [Effect] {
        var effects = wake()
        let target = max(0, min(settings.volumeLimit, alarm.volume))
        let start = target / 10
        var ringing = Ringing(
            alarmID: alarm.id, label: clockText(hour: alarm.hour, minute: alarm.minute, twentyFour: settings.clock24h),
            startedAt: now, startVolume: start, targetVolume: target, lastVolume: start)
        settings.volume = start
        effects += [.playback(.volume(start)), .notify(.mixer)]
        let ids = alarmTracks(alarm.sound)
        if ids.isEmpty {
            if player.hasCurrent, player.status == .playing { effects += playPause() }
            ringing.nextBeep = now.adding(ms: Self.toneIntervalMS)
            effects.append(.alarmTone(volume: start))
        } else {
            let shuffle: Settings.Shuffle = alarm.sound == .shuffleSongs ? .songs : .off
            let first = shuffle == .off ? 0 : Int(queue.random.next() % UInt64(ids.count))
            effects += startQueue(ids, at: first, shuffle: shuffle)
        }
        alarmClock.ringing = ringing
        return effects
    }

    /// The tracks an alarm's sound plays (empty: the tone).
    mutating func alarmTracks(_ sound: Alarm.Sound) -> [TrackID] {
        switch sound {
        case .tone: return []
        case .shuffleSongs: return (try? library.trackIDs(of: .songs)) ?? []
        case .playlist(let id, _): return (try? library.trackIDs(of: .songsOfPlaylist(id))) ?? []
        case .podcast(let id, _):
            // A show's episodes list newest first: the newest alone.
            return Array(((try? library.trackIDs(of: .episodesOfShow(id))) ?? []).prefix(1))
        }
    }

    /// The fade's step (1 s apart, linear over `fadeMS`) and the tone's beep.
    private mutating func fadeStep() -> [Effect] {
        guard var r = alarmClock.ringing else { return [] }
        var effects: [Effect] = []
        if r.fading {
            if settings.volume != r.lastVolume {
                r.fading = false  // the wheel took over
            } else {
                let elapsed = min(Self.fadeMS, max(0, now.milliseconds(since: r.startedAt)))
                let steps = elapsed / Self.fadeStepMS
                let v =
                    r.startVolume + Int(Int64(r.targetVolume - r.startVolume) * steps * Self.fadeStepMS / Self.fadeMS)
                if v != settings.volume {
                    settings.volume = v
                    r.lastVolume = v
                    effects.append(.playback(.volume(v)))
                }
                if elapsed >= Self.fadeMS {
                    r.fading = false
                    effects.append(.notify(.mixer))
                }
            }
        }
        if let beep = r.nextBeep, now >= beep {
            effects.append(.alarmTone(volume: settings.volume))
            r.nextBeep = now.adding(ms: Self.toneIntervalMS)
        }
        alarmClock.ringing = r
        return effects
    }

    /// Input while ringing: Select snoozes, Menu and Play/Pause stop; anything else is ignored.
    /// Nil when nothing rings (the input goes on as usual).
    mutating func ringingInput(_ action: Keymap.Action) -> [Effect]? {
        guard let r = alarmClock.ringing else { return nil }
        switch action {
        case .select:
            alarmClock.ringing = nil
            var effects = silence()
            if let i = settings.alarms.firstIndex(where: { $0.id == r.alarmID }), let unix = unixNowMS {
                settings.alarms[i].snoozeUntilUnixMS = unix + Self.snoozeMS
                effects.append(.persist(settings))
            }
            return effects
        case .back, .mainMenu, .playPause:
            alarmClock.ringing = nil
            return silence() + [.persist(settings)]
        default:
            return []
        }
    }

    /// Ends the sound (pauses what plays; the tone just stops beeping).
    private mutating func silence() -> [Effect] {
        guard player.hasCurrent, player.status == .playing else { return [.notify(.mixer)] }
        return playPause() + [.notify(.mixer)]
    }

    /// The next alarm or snooze to ring after now, as the Clock shows it ("07:00"); nil when none.
    func nextAlarmText() -> String? {
        guard let local = localNowMS, let unix = unixNowMS else { return nil }
        let minute = LocalTime.floorDiv(local, 60_000)
        var best: (at: Int64, hour: Int, minute: Int)?
        for alarm in settings.alarms {
            if let snooze = alarm.snoozeUntilUnixMS {
                let at = LocalTime.floorDiv(local + (snooze - unix), 60_000)
                if best == nil || at < best!.at {
                    best = (at, Int((at % 1440 + 1440) % 1440) / 60, Int((at % 1440 + 1440) % 1440) % 60)
                }
            }
            guard alarm.enabled, let t = Self.nextOccurrence(of: alarm, after: minute) else { continue }
            if best == nil || t < best!.at { best = (t, alarm.hour, alarm.minute) }
        }
        return best.map { clockText(hour: $0.hour, minute: $0.minute, twentyFour: settings.clock24h) }
    }

    /// The earliest local minute after `after` on which `alarm` rings (within 8 days).
    static func nextOccurrence(of alarm: Alarm, after: Int64) -> Int64? {
        let ofDay = Int64(alarm.hour * 60 + alarm.minute)
        var day = LocalTime.floorDiv(after, 1440)
        for _ in 0..<9 {
            let t = day * 1440 + ofDay
            if t > after && alarm.rings(onWeekday: LocalTime.weekday(ofDay: day)) { return t }
            day += 1
        }
        return nil
    }
}
