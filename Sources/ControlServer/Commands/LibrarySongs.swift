import Library
import Synchronization

/// What the library commands (`listall`, `listallinfo`, `lsinfo`, `list`, `count`, `find`, `search`,
/// the `…add` forms, and `stats`) read of the library, read from the database once and kept until the library
/// changes (`clear`, on the database event): reading and decoding every row for each command costs far
/// more than going over records already in memory, where MPD keeps its whole database too. They are
/// read when a client first asks, or ahead of it (`ControlCommands.warmLibrary`); their memory and
/// times are in contrib/bench/README.md.
///
/// Thread rules: any thread but an event loop (a first read blocks on the database).
final class LibrarySongs: Sendable {
    /// Every song, in path order.
    let songs = KeptUntilChange<[SongRecord]>()
    /// The folders that hold songs directly, as runs in path order with their songs' newest times
    /// (`Catalog.folderRuns`).
    let folders = KeptUntilChange<[(folder: String, newest: Int64)]>()
    /// The folders as `lsinfo` lists them, worked out from `folders`.
    let tree = KeptUntilChange<DirectoryTree.Folders>()
    /// The library's part of `stats` (counted in SQL, and asked by clients on every connect; MPD keeps
    /// its counts).
    let statistics = KeptUntilChange<Catalog.Statistics>()

    func clear() {
        songs.clear()
        folders.clear()
        tree.clear()
        statistics.clear()
    }
}

/// One value read from the library, kept until the library changes.
final class KeptUntilChange<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, generation: Int)>((nil, 0))
    /// Held while the value is read, so that clients asking at once wait for one read, not make several.
    private let reading = Mutex<Void>(())

    /// The value, read with `read` if the library changed since it was last read.
    func get(_ read: () throws -> Value) throws -> Value {
        if let value = state.withLock({ $0.value }) { return value }
        return try reading.withLock { _ throws -> Value in
            let (kept, generation) = state.withLock { ($0.value, $0.generation) }
            if let kept { return kept }
            let value = try read()
            // A change during the read makes it stale: used this once, not kept.
            state.withLock { if $0.generation == generation { $0.value = value } }
            return value
        }
    }

    /// The library changed: read it again when next asked.
    func clear() {
        state.withLock { $0 = (nil, $0.generation + 1) }
    }
}

extension Array where Element == SongRecord {
    /// Calls `body` with each song `filter` matches (every song without one) until it returns false,
    /// without gathering the matches into an array first (`count genre "Rock"` matched a quarter of
    /// the library, and copying them cost a third of its time).
    func forEach(matching filter: SongFilter?, _ body: (SongRecord) -> Bool) {
        for song in self where filter?.matches(song) ?? true {
            if !body(song) { return }
        }
    }

    /// The songs `filter` matches (all of them without one).
    func matching(_ filter: SongFilter?) -> [SongRecord] {
        guard let filter else { return self }
        return self.filter(filter.matches)
    }
}
