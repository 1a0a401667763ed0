import Foundation
import GRDB
import GRDBSQLite

extension Catalog {
    /// The folders under `directory` ("" for all) that hold songs directly, as runs in path order (a
    /// folder comes again when subfolders sort between its songs), each with the newest modification
    /// time of its songs in the run (Unix seconds; "" is the music folder itself). Folders are told
    /// apart by their bytes: two whose names differ only in Unicode normalisation are two folders.
    public func folderRuns(under directory: String) throws -> [(folder: String, newest: Int64)] {
        try db.read { db in
            let (filter, args) = Self.below(directory)
            return try Self.folderRuns(db, filter: filter, args: args)
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
            return try Self.records(db, sql: sql, arguments: args, values)
        }
    }

    /// The WHERE clause for the songs under `directory`.
    static func below(_ directory: String) -> (String, StatementArguments) {
        directory.isEmpty ? ("", []) : ("WHERE path > ? AND path < ?", [directory + "/", directory + "0"])
    }

    /// The songs' folders as they come in path order, with each run's newest modification time (Unix
    /// seconds): a folder comes once, unless subfolders sort between its songs (then once per run).
    static func folderRuns(_ db: Database, filter: String, args: StatementArguments) throws -> [(folder: String, newest: Int64)] {
        // One light pass over the path index first (a GROUP BY on the folder, computed in SQL with
        // rtrim, costs an order of magnitude more: rtrim with a set of every character of the path is
        // quadratic per row; measured: contrib/bench/README.md, Measurements behind constants).
        // The path's bytes are compared in place (no string per row): only a new folder makes one.
        var runs: [(folder: String, newest: Int64)] = []
        var folder: [UInt8]?
        var newest: Int64 = 0
        func flush() {
            guard let folder else { return }
            runs.append((String(decoding: folder, as: UTF8.self), newest / 1_000_000_000))
        }
        let statement = try db.cachedStatement(sql: "SELECT path, mtime_ns FROM tracks \(filter) ORDER BY path")
        let paths = try Row.fetchCursor(statement, arguments: args)
        let raw = statement.sqliteStatement
        while try paths.next() != nil {
            let ns = sqlite3_column_int64(raw, 1)
            guard let text = sqlite3_column_text(raw, 0) else { continue }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(raw, 0)))
            let parent = bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]
            if let current = folder, current.count == parent.count,
                current.isEmpty || current.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text, current.count) == 0 })
            {
                newest = max(newest, ns)
            } else {
                flush()
                folder = Array(parent)
                newest = ns
            }
        }
        flush()
        return runs
    }
}
