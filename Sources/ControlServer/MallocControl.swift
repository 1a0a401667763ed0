import Foundation

/// glibc's allocator controls `malloc_trim` and `mallopt`, looked up at run time: Swift's Glibc module does
/// not bring in <malloc.h>. On a C library without them (musl) nothing is done.
public enum MallocControl {
    /// Gives what the allocator holds free back to the system (`malloc_trim(0)`); a few milliseconds.
    public static func trim() {
        guard let f = symbol("malloc_trim") else { return }
        _ = unsafeBitCast(f, to: (@convention(c) (Int) -> Int32).self)(0)
    }

    /// At most `count` malloc arenas from now on (`mallopt(M_ARENA_MAX, count)`), instead of glibc's eight
    /// per core: each thread that allocates would get an arena that keeps what it freed.
    public static func limitArenas(to count: Int32) {
        guard let f = symbol("mallopt") else { return }
        let mArenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        _ = unsafeBitCast(f, to: (@convention(c) (Int32, Int32) -> Int32).self)(mArenaMax, count)
    }

    /// Blocks of `bytes` or more are mapped on their own and unmapped when freed
    /// (`mallopt(M_MMAP_THRESHOLD, bytes)`), instead of glibc's threshold that rises to each large block
    /// freed (up to 32 MiB), after which such blocks come from the arenas and stay there when freed.
    public static func mapBlocks(from bytes: Int32) {
        guard let f = symbol("mallopt") else { return }
        let mMmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        _ = unsafeBitCast(f, to: (@convention(c) (Int32, Int32) -> Int32).self)(mMmapThreshold, bytes)
    }

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        return dlsym(process, name)
    }
}
