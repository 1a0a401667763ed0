public import ClickWheelCore
import Glibc

/// The monotonic clock (CLOCK_MONOTONIC, the clock evdev timestamps can use) as `Timestamp`s.
public enum MonotonicClock {
    /// Now.
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Timestamp(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }
}
