import ControlServer
import Foundation

extension ClickWheelService {
    /// Two malloc arenas for the whole process, not glibc's eight per core. A client's command queue runs
    /// on a GCD thread of its own, and each thread that allocates would get an arena that keeps what it
    /// freed, so memory would grow with the clients served at once (the figures: contrib/soak/README.md,
    /// Memory under never-reading clients). Call it first, before the service starts its threads (glibc
    /// fixes its limit when the ninth arena would be made). `MALLOC_ARENA_MAX` in the environment wins
    /// (glibc reads it itself).
    ///
    /// And blocks of 256 KiB or more (a listing's answer, what a client that stopped reading is owed, up to
    /// 8 MiB each) are mapped on their own and go back to the system when freed: with glibc's own rising
    /// threshold they would come from the arenas and stay there, held but not in use (the soak's figures:
    /// contrib/soak/README.md, The long run). `MALLOC_MMAP_THRESHOLD_` in the environment wins.
    public static func limitMallocArenas() {
        let environment = ProcessInfo.processInfo.environment
        if environment["MALLOC_ARENA_MAX"] == nil { MallocControl.limitArenas(to: 2) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { MallocControl.mapBlocks(from: 256 * 1024) }
    }
}
