import GRDB

extension Catalog {
    /// Reads the songs under `directory` ("" for all) in path order one at a time, from a database
    /// cursor: the set is never in memory whole, however large the library. First `folders` gets, for
    /// every folder that holds songs directly, the newest of their modification times (Unix seconds;
    /// the key is the folder's path, "" for the music folder itself; not read when `folders` is nil),
    /// then `song` gets each song.
    /// Everything is read in one transaction, so both see the same library.
    ///
    /// Thread rules: any thread but an event loop; it blocks for as long as `song` takes (a caller
    /// streaming to a slow client holds one read transaction open meanwhile, which WAL allows).
    public func forEachSong(
        under directory: String, folders: (([String: Int64]) throws -> Void)?, song: (SongRecord) throws -> Void
    ) throws {
        try db.read { db in
            let values = try Self.multiValues(db)
            let (filter, args) = Self.below(directory)
            if let folders { try folders(try Self.folderTimes(db, filter: filter, args: args)) }
            let songs = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT \(Self.columns) FROM tracks \(filter) ORDER BY path"), arguments: args)
            while let row = try songs.next() { try song(Self.record(row, values)) }
        }
    }

    /// For every folder under `directory` ("" for all) that holds songs directly, the newest of their
    /// modification times (Unix seconds); the key is the folder's path ("" for the music folder).
    public func folderTimes(under directory: String) throws -> [String: Int64] {
        try db.read { db in
            let (filter, args) = Self.below(directory)
            return try Self.folderTimes(db, filter: filter, args: args)
        }
    }

    /// The songs directly in `directory` ("" for the music folder), not in its subfolders, in path order.
    public func songs(directlyIn directory: String) throws -> [SongRecord] {
        try db.read { db in
            let values = try Self.multiValues(db)
            let sql = directory.isEmpty
                ? "SELECT \(Self.columns) FROM tracks WHERE instr(path, '/') = 0 ORDER BY path"
                : "SELECT \(Self.columns) FROM tracks WHERE path > ? AND path < ? AND instr(substr(path, ?), '/') = 0 ORDER BY path"
            let args: StatementArguments = directory.isEmpty
                ? [] : [directory + "/", directory + "0", directory.unicodeScalars.count + 2]
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: args).map { Self.record($0, values) }
        }
    }

    /// The WHERE clause for the songs under `directory`.
    static func below(_ directory: String) -> (String, StatementArguments) {
        directory.isEmpty ? ("", []) : ("WHERE path > ? AND path < ?", [directory + "/", directory + "0"])
    }

    static func folderTimes(_ db: Database, filter: String, args: StatementArguments) throws -> [String: Int64] {
        // One light pass over the path index first (a GROUP BY on the folder, computed in SQL with
        // rtrim, costs ten times more). A folder's songs come in runs (one, unless subfolders
        // sort between them): each run's newest joins the folder's.
        // The path's bytes are compared in place (no string per row): only a new folder makes one.
        var times: [String: Int64] = [:]
        var folder: [UInt8]?
        var newest: Int64 = 0
        func flush() {
            guard let folder else { return }
            let key = String(decoding: folder, as: UTF8.self)
            times[key] = max(times[key] ?? .min, newest / 1_000_000_000)
        }
        let paths = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT path, mtime_ns FROM tracks \(filter) ORDER BY path"), arguments: args)
        while let row = try paths.next() {
            let ns: Int64 = row[1]
            try row.withUnsafeData(atIndex: 0) { data in
                guard let path = data else { return }
                path.withUnsafeBytes { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    let parent = bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]
                    if let current = folder, current.elementsEqual(parent) {
                        newest = max(newest, ns)
                    } else {
                        flush()
                        folder = Array(parent)
                        newest = ns
                    }
                }
            }
        }
        flush()
        return times
    }
}
