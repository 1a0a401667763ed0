import Library
import Synchronization

/// Every song of the library in path order, read from the database once and kept until the library
/// changes: what `list`, `count`, `find`, `search`, `findadd` and `searchadd` go through. Reading and
/// decoding the rows of a 10,000-song library took about 100 ms for each such command (MPD, whose
/// database lives in memory, answers them in 1–3 ms); filtering records already in memory takes a few.
/// The records of 10,000 songs take about 5 MiB; the cache is built when a client first asks, and
/// `listall`/`listallinfo`/`lsinfo` still read the database (in path order, streamed).
///
/// Thread rules: any thread but an event loop (a first read blocks on the database).
final class LibrarySongs: Sendable {
    private let state = Mutex<(songs: [SongRecord]?, generation: Int)>((nil, 0))
    /// Held while the songs are read, so that clients asking at once wait for one read, not make several.
    private let reading = Mutex<Void>(())

    /// The songs, read now if the library changed since the last read.
    func all(_ catalog: Catalog) throws -> [SongRecord] {
        if let songs = state.withLock({ $0.songs }) { return songs }
        return try reading.withLock { _ throws -> [SongRecord] in
            let (kept, generation) = state.withLock { ($0.songs, $0.generation) }
            if let kept { return kept }
            let songs = try catalog.songs(under: "")
            // A change during the read makes it stale: used this once, not kept.
            state.withLock { if $0.generation == generation { $0.songs = songs } }
            return songs
        }
    }

    /// The library changed: read it again when next asked.
    func clear() {
        state.withLock { $0 = (nil, $0.generation + 1) }
    }
}
