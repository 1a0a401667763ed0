/// One alarm of Extras → Alarms: when it rings, on which days, what it plays and how loud.
///
/// Kept in `Settings.alarms`, so it is stored (as JSON in the library database) with every change and
/// survives a restart or a power cut, its snooze and the last occurrence it rang for included.
public struct Alarm: Hashable, Sendable, Codable {
    /// What an alarm plays.
    public enum Sound: Hashable, Sendable, Codable {
        /// A beep made by the click path (no library needed: also what plays when the chosen list is empty).
        case tone
        case shuffleSongs
        case playlist(id: Int64, name: String)
        /// The newest episode of a podcast.
        case podcast(id: Int64, name: String)

        /// The label of the Sound row.
        public var title: String {
            switch self {
            case .tone: "Tone"
            case .shuffleSongs: "Shuffle Songs"
            case .playlist(_, let name), .podcast(_, let name): name
            }
        }
    }

    /// Stable within the settings: the editor and the ringing screen name alarms by it.
    public var id: Int
    public var enabled = true
    public var hour = 7
    public var minute = 0
    /// The weekdays it rings on, bit 0 = Sunday … bit 6 = Saturday; 0: once (then it turns itself off).
    public var days = 0
    public var sound = Sound.tone
    /// The volume it fades up to, 0…100.
    public var volume = 50
    /// A snoozed alarm rings again at this Unix time (Unix, not local: a DST change does not move it).
    public var snoozeUntilUnixMS: Int64?
    /// The local minute (minutes since 1970-01-01 00:00 local) of the last occurrence it rang for: a
    /// local minute seen again (the clock set back, the hour DST repeats) does not ring it twice.
    public var lastRungLocalMinute: Int64?

    public init(id: Int, hour: Int = 7, minute: Int = 0, days: Int = 0, sound: Sound = .tone, volume: Int = 50) {
        self.id = id
        self.hour = hour
        self.minute = minute
        self.days = days
        self.sound = sound
        self.volume = volume
    }

    public static let everyDay = 0b111_1111
    public static let weekdays = 0b011_1110
    public static let weekends = 0b100_0001

    /// True when it rings on weekday `weekday` (0 = Sunday); a once alarm rings on any day.
    public func rings(onWeekday weekday: Int) -> Bool {
        days == 0 || days & (1 << weekday) != 0
    }

    /// The Repeat row's value: Once, Every Day, Weekdays, Weekends, or the days' initials ("MWF").
    public var repeatTitle: String {
        switch days {
        case 0: return "Once"
        case Self.everyDay: return "Every Day"
        case Self.weekdays: return "Weekdays"
        case Self.weekends: return "Weekends"
        default:
            // Monday first, as a week reads.
            return [1, 2, 3, 4, 5, 6, 0].filter { days & (1 << $0) != 0 }.map {
                ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"][$0]
            }
            .joined(separator: " ")
        }
    }
}
