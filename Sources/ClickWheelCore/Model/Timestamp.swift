/// A point on a monotonic clock, in microseconds: the only way time enters the core.
///
/// Shells stamp events with it (evdev times, a timer's ticks); tests make them up. The core never reads
/// a clock itself, so every behaviour that depends on time is replayable.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since an arbitrary origin shared by every event of one run.
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// A timestamp `ms` milliseconds after the origin.
    public static func ms(_ ms: Int64) -> Timestamp {
        Timestamp(microseconds: ms * 1000)
    }

    /// The origin.
    public static let zero = Timestamp(microseconds: 0)

    /// This timestamp moved by `ms` milliseconds.
    public func adding(ms: Int64) -> Timestamp {
        Timestamp(microseconds: microseconds + ms * 1000)
    }

    /// Milliseconds from `earlier` to this timestamp (negative when `earlier` is later).
    public func milliseconds(since earlier: Timestamp) -> Int64 {
        (microseconds - earlier.microseconds) / 1000
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    public var description: String {
        let seconds = microseconds / 1_000_000
        let micros = abs(microseconds % 1_000_000)
        let padded = String(micros)
        return "\(seconds)." + String(repeating: "0", count: 6 - padded.count) + padded
    }
}
