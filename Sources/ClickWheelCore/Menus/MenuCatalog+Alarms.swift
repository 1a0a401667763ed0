/// Extras, the alarm editor's menus and Settings → Date & Time, as declarations.
extension MenuCatalog {
    static func alarmItems(of menu: MenuID, settings: Settings) -> [MenuItem] {
        switch menu {
        case .extras:
            return [MenuItem("Clock", .open(.clock)), MenuItem("Alarms", .open(.menu(.alarms)))]
        case .alarms:
            let rows = settings.alarms.map { alarm in
                let time = clockText(hour: alarm.hour, minute: alarm.minute, twentyFour: settings.clock24h)
                return MenuItem("\(time) \(alarm.repeatTitle)", .open(.menu(.alarm(alarm.id))))
            }
            return rows + [MenuItem("Create Alarm", .createAlarm)]
        case .alarm(let id):
            guard let alarm = settings.alarms.first(where: { $0.id == id }) else { return [] }
            return [
                MenuItem("Alarm", .alarmEnabled(id)),
                MenuItem("Time", .open(.alarmTime(AlarmTimeEdit(alarmID: id, hour: alarm.hour, minute: alarm.minute)))),
                MenuItem("Repeat", .open(.menu(.alarmRepeat(id)))),
                MenuItem("Sound", .open(.menu(.alarmSound(id)))),
                MenuItem("Volume", .alarmVolume(id)),
                MenuItem("Delete", .deleteAlarm(id)),
            ]
        case .alarmRepeat(let id):
            return [
                MenuItem("Once", .alarmDays(id, days: 0)),
                MenuItem("Every Day", .alarmDays(id, days: Alarm.everyDay)),
                MenuItem("Weekdays", .alarmDays(id, days: Alarm.weekdays)),
                MenuItem("Weekends", .alarmDays(id, days: Alarm.weekends)),
                MenuItem("Choose Days", .open(.menu(.alarmDays(id)))),
            ]
        case .alarmDays(let id):
            // Monday first, as a week reads.
            return [1, 2, 3, 4, 5, 6, 0].map { MenuItem(weekdayNames[$0], .alarmDay(id, weekday: $0)) }
        case .alarmSound(let id):
            // The library's playlists and podcasts follow (`Engine.alarmSoundItems`).
            return [
                MenuItem("Tone", .alarmSound(id, .tone)), MenuItem("Shuffle Songs", .alarmSound(id, .shuffleSongs)),
            ]
        case .dateTime:
            return [MenuItem(SettingKey.clock24h.title, .setting(.clock24h)), MenuItem("Time Zone", .none)]
        default:
            return []
        }
    }

    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
