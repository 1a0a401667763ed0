import Library
import Synchronization

/// What the library commands (`listall`, `listallinfo`, `lsinfo`, `list`, `count`, `find`, `search`,
/// the `…add` forms, and `stats`) read of the library, read from the database once and kept until the library
/// changes (`clear`, on the database event): reading and decoding every row for each command costs far
/// more than going over records already in memory, where MPD keeps its whole database too. They are
/// read when a client first asks, or ahead of it (`ControlCommands.warmLibrary`); their memory and
/// times are in contrib/bench/README.md.
///
/// Thread rules: any thread but an event loop (a first read blocks on the database); `kept`, which
/// never reads, may be asked on the event loop.
final class LibrarySongs: Sendable {
    /// Every song, in path order, with the tag columns made from them so far.
    let songs = KeptUntilChange<SongTable>()
    /// The folders that hold songs directly, as runs in path order with their songs' newest times
    /// (`Catalog.folderRuns`).
    let folders = KeptUntilChange<[(folder: String, newest: Int64)]>()
    /// The folders as `lsinfo` lists them, worked out from `folders`.
    let tree = KeptUntilChange<DirectoryTree.Folders>()
    /// The library's part of `stats` (counted in SQL, and asked by clients on every connect; MPD keeps
    /// its counts).
    let statistics = KeptUntilChange<Catalog.Statistics>()
    /// The stored playlists and the music folder's playlist files (`Catalog.allPlaylists`), read again
    /// after any write to their table (`ControlCommands`' `TableCommits`) as well as on library changes.
    let playlists = KeptUntilChange<Catalog.AllPlaylists>()

    /// `sticker find song "" NAME`'s answer by sticker name (`StickerStore.find` over the whole library),
    /// read again after any write to the play counts or the tracks (`TableCommits`) and after each
    /// `sticker set` or `delete` (the command clears it).
    let stickerFinds = KeptByName<[(path: String, value: String)]>()

    func clear() {
        stickerFinds.clear()
        playlists.clear()
        songs.clear()
        folders.clear()
        tree.clear()
        statistics.clear()
    }
}

/// Values read from the library by name (a few names), each kept until the library changes.
final class KeptByName<Value: Sendable>: Sendable {
    private let values = Mutex<[String: KeptUntilChange<Value>]>([:])

    /// The one kept for `name` (made empty on first use, and never dropped, so that `clear` reaches
    /// every read under way).
    func callAsFunction(_ name: String) -> KeptUntilChange<Value> {
        values.withLock { values in
            if let kept = values[name] { return kept }
            let made = KeptUntilChange<Value>()
            values[name] = made
            return made
        }
    }

    /// The value kept for `name` now, without reading.
    func kept(_ name: String) -> Value? { values.withLock { $0[name] }?.kept }

    func clear() {
        for kept in values.withLock({ Array($0.values) }) { kept.clear() }
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

    /// The value if it is kept now, without reading (for the event loop, which must not block).
    var kept: Value? { state.withLock { $0.value } }

    /// The library changed: read it again when next asked.
    func clear() {
        state.withLock { $0 = (nil, $0.generation + 1) }
    }
}
