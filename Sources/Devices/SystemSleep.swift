import Glibc

/// Blocking sleeps for device threads (never the cooperative pool): `usleep`.
public enum SystemSleep {
    /// Sleeps at least `n` microseconds.
    public static func microseconds(_ n: Int) {
        guard n > 0 else { return }
        usleep(UInt32(n))
    }
}
