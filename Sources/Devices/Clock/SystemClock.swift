import CTimex
import Foundation
import Glibc

/// The system's clocks as the scrobble log needs them (the service makes Library's `ScrobbleClock` of
/// these): whether the wall clock is synchronised, CLOCK_BOOTTIME, and this boot's id.
///
/// Synchronised: the kernel's NTP state (`adjtimex`, read only: not TIME_ERROR, no STA_UNSYNC), which
/// systemd-timesyncd, chrony and ntpd set once they have set the clock; a Pi without a real-time clock
/// starts unsynchronised, at 1970 or the last shutdown's time. With `syncedFile` the kernel is not
/// asked: the clock counts as synchronised exactly while that file exists (e.g.
/// `/run/systemd/timesync/synchronized`, which systemd-timesyncd creates at its first sync; and the
/// seam the end-to-end tests flip while the service runs).
public enum SystemClock {
    /// Whether the wall clock is right; `syncedFile`: see above (nil: the kernel's status).
    public static func isSynchronised(syncedFile: String?) -> Bool {
        syncedFile.map { FileManager.default.fileExists(atPath: $0) } ?? kernelSaysSynchronised()
    }

    /// The kernel's NTP state (`adjtimex` through `cw_clock_synchronised`); a failing call counts as
    /// unsynchronised.
    public static func kernelSaysSynchronised() -> Bool { cw_clock_synchronised() == 1 }

    /// Milliseconds since boot, suspend included (`clock_gettime(CLOCK_BOOTTIME)`).
    public static func bootMS() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// This boot's id (`/proc/sys/kernel/random/boot_id`); when unreadable, a random one for this process,
    /// so listens of an unknown boot are never worked back with another boot's clock.
    public static func bootID() -> String {
        let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        let id = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return id.isEmpty ? "unknown-" + UUID().uuidString : id
    }
}
