import ControlServer
import Foundation

extension ClickWheelService {
    /// Two malloc arenas for the whole process, not glibc's eight per core. A client's command queue runs
    /// on a GCD thread of its own, and each thread that allocates would get an arena that keeps what it
    /// freed: under 3 never-reading and 10 reading clients the service held 15 arenas and 66.5 MiB, with
    /// two 59.0 MiB (contrib/soak/README.md, `rss_probe.py`). Call it first, before the service starts
    /// its threads (glibc fixes its limit when the ninth arena would be made). `MALLOC_ARENA_MAX` in the
    /// environment wins (glibc reads it itself).
    public static func limitMallocArenas() {
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
        MallocControl.limitArenas(to: 2)
    }
}
