import Library
import Synchronization

/// The song playing now, kept between requests so `status` and `currentsong` need no database read
/// (and can be answered on the event loop). Emptied when the library changes.
final class CurrentSongCache: Sendable {
    private let state = Mutex<(song: SongRecord?, generation: Int)>((nil, 0))
    /// `state.generation`, also readable without the lock (the `status` poll's stamp); written with it.
    private let generationNow = Atomic<Int>(0)

    func song(_ track: Int64) -> SongRecord? {
        state.withLock { $0.song?.id == track ? $0.song : nil }
    }

    var generation: Int { generationNow.load(ordering: .acquiring) }

    /// Keeps `song`, read while the cache was at `generation` (a read that began before the library
    /// changed is not kept).
    func keep(_ song: SongRecord, readIn generation: Int) {
        state.withLock { if $0.generation == generation { $0.song = song } }
    }

    /// The library changed: forget the song.
    func clear() {
        state.withLock {
            $0 = (nil, $0.generation + 1)
            generationNow.store($0.generation, ordering: .releasing)
        }
    }
}
