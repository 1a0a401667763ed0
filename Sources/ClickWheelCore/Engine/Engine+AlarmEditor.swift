/// Extras → Clock and the alarm editor on the wheel: Alarms lists the alarms and Create Alarm; an
/// alarm's screen has Alarm (On/Off), Time (the wheel sets the hour, Select, the minutes, Select),
/// Repeat (Once, Every Day, Weekdays, Weekends, Choose Days), Sound (Tone, Shuffle Songs, a playlist,
/// a podcast's newest episode), Volume (cycles in 10 % steps) and Delete. Every change is stored
/// (`Effect.persist`: the alarms live in the settings).
extension Engine {
    /// The view of the Clock (and of a ringing alarm, over whatever screen was open).
    func clockView() -> ClockView {
        ClockView(
            time: localTime, twentyFour: settings.clock24h, nextAlarm: nextAlarmText(),
            ringing: alarmClock.ringing.map { "Alarm \($0.label)" })
    }

    /// The ringing screen on displays too small for the big clock and a banner.
    func ringingView(_ r: Ringing) -> ScreenView {
        configuration.geometry.rows >= 3
            ? .clock(clockView()) : .text(title: "Alarm", lines: ["Alarm \(r.label)", "Select: Snooze"])
    }

    /// The Time editor: hour then minutes, the part being set in brackets.
    func alarmTimeView(_ edit: AlarmTimeEdit) -> ScreenView {
        let text = clockText(hour: edit.hour, minute: edit.minute, twentyFour: true)
        let hh = String(text.prefix(2)), mm = String(text.suffix(2))
        var line = edit.settingMinutes ? "\(hh):[\(mm)]" : "[\(hh)]:\(mm)"
        if !settings.clock24h { line += edit.hour < 12 ? " AM" : " PM" }
        return .text(title: "Alarm Time", lines: [line])
    }

    /// The wheel on the Time editor: an hour or a minute per step, wrapping.
    mutating func adjustAlarmTime(by steps: Int) -> [Effect] {
        guard case .alarmTime(var edit) = top.destination else { return [] }
        if edit.settingMinutes {
            edit.minute = ((edit.minute + steps) % 60 + 60) % 60
        } else {
            edit.hour = ((edit.hour + steps) % 24 + 24) % 24
        }
        stack[stack.count - 1].destination = .alarmTime(edit)
        return settings.clicker == .off ? [] : [.click(settings.clicker)]
    }

    /// Select on the Time editor: on to the minutes, then store the time and go back.
    mutating func selectAlarmTime(_ edit: AlarmTimeEdit) -> [Effect] {
        guard edit.settingMinutes else {
            var next = edit
            next.settingMinutes = true
            stack[stack.count - 1].destination = .alarmTime(next)
            return []
        }
        _ = back()
        return changeAlarm(edit.alarmID) {
            $0.hour = edit.hour
            $0.minute = edit.minute
            $0.enabled = true
            $0.lastRungLocalMinute = nil
            $0.snoozeUntilUnixMS = nil
        }
    }

    /// The alarm editor's menu actions.
    mutating func alarmAction(_ action: MenuAction) -> [Effect] {
        switch action {
        case .createAlarm:
            let id = (settings.alarms.map(\.id).max() ?? 0) + 1
            settings.alarms.append(Alarm(id: id, volume: min(50, settings.volumeLimit)))
            push(.menu(.alarm(id)))
            // Straight on to its time, as the iPod does.
            push(.alarmTime(AlarmTimeEdit(alarmID: id, hour: 7, minute: 0)))
            return [.persist(settings)]
        case .alarmEnabled(let id):
            return changeAlarm(id) {
                $0.enabled.toggle()
                $0.snoozeUntilUnixMS = nil
            }
        case .alarmDays(let id, let days):
            _ = back()
            return changeAlarm(id) { $0.days = days }
        case .alarmDay(let id, let weekday):
            return changeAlarm(id) { $0.days ^= 1 << weekday }
        case .alarmSound(let id, let sound):
            _ = back()
            return changeAlarm(id) { $0.sound = sound }
        case .alarmVolume(let id):
            return changeAlarm(id) { $0.volume = $0.volume >= 100 ? 10 : $0.volume + 10 }
        case .deleteAlarm(let id):
            settings.alarms.removeAll { $0.id == id }
            if alarmClock.ringing?.alarmID == id { alarmClock.ringing = nil }
            _ = back()
            return [.persist(settings)]
        default:
            return []
        }
    }

    private mutating func changeAlarm(_ id: Int, _ change: (inout Alarm) -> Void) -> [Effect] {
        guard let i = settings.alarms.firstIndex(where: { $0.id == id }) else { return [] }
        change(&settings.alarms[i])
        return [.persist(settings)]
    }

    /// Sound's rows after Tone and Shuffle Songs: the library's playlists, then its podcasts (newest
    /// episode), read when the menu is drawn (at most 100 of each).
    func alarmSoundItems(_ id: Int) -> [MenuItem] {
        var items: [MenuItem] = []
        for (list, podcast) in [(BrowseList.playlists, false), (.podcastShows, true)] {
            let n = min(100, (try? library.count(of: list)) ?? 0)
            guard n > 0, let rows = try? library.rows(of: list, in: 0..<n) else { continue }
            for row in rows {
                let sound: Alarm.Sound =
                    podcast ? .podcast(id: row.id, name: row.title) : .playlist(id: row.id, name: row.title)
                items.append(MenuItem(row.title, .alarmSound(id, sound)))
            }
        }
        return items
    }

    /// The value shown at the right of an alarm editor's row (nil for other rows).
    func alarmTrailing(_ action: MenuAction) -> String? {
        func alarm(_ id: Int) -> Alarm? { settings.alarms.first { $0.id == id } }
        switch action {
        case .alarmEnabled(let id): return alarm(id).map { $0.enabled ? "On" : "Off" }
        case .open(.alarmTime(let edit)):
            return alarm(edit.alarmID).map {
                clockText(hour: $0.hour, minute: $0.minute, twentyFour: settings.clock24h)
            }
        case .open(.menu(.alarmRepeat(let id))): return alarm(id)?.repeatTitle
        case .open(.menu(.alarmSound(let id))): return alarm(id)?.sound.title
        case .alarmVolume(let id): return alarm(id).map { "\($0.volume)%" }
        case .alarmDay(let id, let weekday): return alarm(id).map { $0.days & (1 << weekday) != 0 ? "On" : "Off" }
        case .open(.menu(.alarm(let id))): return alarm(id).map { $0.enabled ? "On" : "Off" }
        case .none where top.destination == .menu(.dateTime): return alarmClock.wall?.zone ?? "?"
        default: return nil
        }
    }
}
