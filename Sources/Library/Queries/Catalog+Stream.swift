import GRDB

extension Catalog {
    /// Reads the songs under `directory` ("" for all) in path order one at a time, from a database
    /// cursor: the set is never in memory whole, however large the library. First `folders` gets, for
    /// every folder that holds songs directly, the newest of their modification times (Unix seconds;
    /// the key is the folder's path, "" for the music folder itself), then `song` gets each song.
    /// Everything is read in one transaction, so both see the same library.
    ///
    /// Thread rules: any thread but an event loop; it blocks for as long as `song` takes (a caller
    /// streaming to a slow client holds one read transaction open meanwhile, which WAL allows).
    public func forEachSong(
        under directory: String, folders: ([String: Int64]) throws -> Void, song: (SongRecord) throws -> Void
    ) throws {
        try db.read { db in
            let values = try Self.multiValues(db)
            let (filter, args): (String, StatementArguments) = directory.isEmpty
                ? ("", []) : ("WHERE path > ? AND path < ?", [directory + "/", directory + "0"])
            // rtrim(path, <path without '/'>) keeps the path up to its last '/': the folder, with a
            // trailing slash ("" for a song in the music folder itself).
            var times: [String: Int64] = [:]
            let grouped = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT rtrim(path, replace(path, '/', '')) AS folder, max(mtime_ns) FROM tracks \(filter) GROUP BY folder
                    """), arguments: args)
            while let row = try grouped.next() {
                let folder: String = row[0]
                let ns: Int64 = row[1]
                times[folder.isEmpty ? "" : String(folder.dropLast())] = ns / 1_000_000_000
            }
            try folders(times)
            let songs = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT \(Self.columns) FROM tracks \(filter) ORDER BY path"), arguments: args)
            while let row = try songs.next() { try song(Self.record(row, values)) }
        }
    }
}
