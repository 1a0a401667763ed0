/// What the shell reads of the wall clock: Unix time, the system time zone's offset at that moment,
/// and whether the kernel says the clock has been synchronised since boot (a Pi has no RTC: until
/// NTP answers, its clock says whatever it said at the last shutdown, or 1970).
///
/// The engine reads no clock: `Event.clock` carries one of these, and the engine works out local time
/// from the last one and the monotonic time passed since.
public struct WallClock: Hashable, Sendable {
    public var unixMS: Int64
    /// Seconds east of UTC (Europe/Berlin in summer: 7200), DST included.
    public var utcOffsetSeconds: Int
    /// The kernel's sync status (adjtimex STA_UNSYNC clear).
    public var synced: Bool
    /// The system time zone's name, for Settings → Date & Time ("Europe/Berlin").
    public var zone: String

    public init(unixMS: Int64, utcOffsetSeconds: Int = 0, synced: Bool = true, zone: String = "UTC") {
        self.unixMS = unixMS
        self.utcOffsetSeconds = utcOffsetSeconds
        self.synced = synced
        self.zone = zone
    }

    /// Local wall time in milliseconds since 1970-01-01 00:00 local (Unix time moved by the offset).
    public var localMS: Int64 { unixMS + Int64(utcOffsetSeconds) * 1000 }
}

/// A local date and time of day, worked out from local milliseconds without Foundation (pure).
public struct LocalTime: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int

    /// Local milliseconds since 1970-01-01 00:00 local.
    public init(localMS: Int64) {
        let minutes = Self.floorDiv(localMS, 60_000)
        let days = Self.floorDiv(minutes, 1440)
        let ofDay = Int(minutes - days * 1440)
        hour = ofDay / 60
        minute = ofDay % 60
        weekday = Self.weekday(ofDay: days)
        (year, month, day) = Self.civil(fromDays: days)
    }

    /// The weekday of day `days` since 1970-01-01 (a Thursday): 0 = Sunday.
    public static func weekday(ofDay days: Int64) -> Int {
        Int(((days % 7) + 11) % 7)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Howard Hinnant's civil_from_days: the proleptic Gregorian date of day `z` since 1970-01-01.
    static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Fri 27 Nov 2026".
    public var dateText: String {
        "\(Self.weekdayNames[weekday]) \(day) \(Self.monthNames[month - 1]) \(year)"
    }
}

/// Hours and minutes as the user reads them: "07:00" on a 24-hour clock, "7:00 AM" on a 12-hour one.
public func clockText(hour: Int, minute: Int, twentyFour: Bool) -> String {
    let mm = minute < 10 ? "0\(minute)" : "\(minute)"
    if twentyFour { return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + mm }
    let h12 = hour % 12 == 0 ? 12 : hour % 12
    return "\(h12):\(mm) \(hour < 12 ? "AM" : "PM")"
}
