import ClickWheelCore
import Foundation
import GRDB
import Logging

/// Reads `.m3u`/`.m3u8` files of the music folder into `playlists` and `playlist_entries`.
///
/// Entries (`M3UReader`) that point at no indexed track are kept with a NULL track id.
struct PlaylistIndexer {
    let root: String
    let logger: Logger

    /// Updates playlists whose file changed (all of them when `force`); returns how many there are.
    func update(_ files: [DirectoryWalker.Entry], force: Bool, _ db: Database) throws -> Int {
        var existing: [String: (id: Int64, size: Int, mtime: Int64)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, path, size, mtime_ns FROM playlists WHERE path IS NOT NULL") {
            existing[row[1]] = (row[0], row[2], row[3])
        }
        var keep = Set<String>()
        var lookup: TrackLookup?
        for file in files {
            let path = TrackPath(raw: file.relative).display
            keep.insert(path)
            if let e = existing[path], e.size == file.size, e.mtime == file.mtimeNS, !force { continue }
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else {
                logger.warning("cannot read playlist \(path)")
                continue
            }
            if lookup == nil { lookup = try TrackLookup(db) }
            let entries = M3UReader.entries([UInt8](data), playlistPath: path, root: root)
            let name = String(path.split(separator: "/").last ?? "").replacingOccurrences(
                of: #"\.m3u8?$"#, with: "", options: [.regularExpression, .caseInsensitive])
            let id: Int64
            if let e = existing[path] {
                id = e.id
                try db.execute(sql: "UPDATE playlists SET name = ?, sort_key = ?, size = ?, mtime_ns = ? WHERE id = ?",
                               arguments: [name, SortKey.make(name), file.size, file.mtimeNS, id])
                try db.execute(sql: "DELETE FROM playlist_entries WHERE playlist_id = ?", arguments: [id])
            } else {
                try db.execute(sql: "INSERT INTO playlists (path, name, sort_key, size, mtime_ns) VALUES (?, ?, ?, ?, ?)",
                               arguments: [path, name, SortKey.make(name), file.size, file.mtimeNS])
                id = db.lastInsertedRowID
            }
            for (i, target) in entries.enumerated() {
                try db.cachedStatement(sql: "INSERT INTO playlist_entries (playlist_id, position, target, track_id) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [id, i, target, lookup!.id(of: target)])
            }
        }
        for (path, e) in existing where !keep.contains(path) {
            try db.execute(sql: "DELETE FROM playlists WHERE id = ?", arguments: [e.id])
        }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM playlists") ?? 0
    }
}

/// Finds a track by relative path, exactly or, failing that, ignoring Unicode normalisation and case.
struct TrackLookup {
    private var exact: [String: Int64] = [:]
    private var loose: [String: Int64] = [:]

    init(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT id, path FROM tracks") {
            let path: String = row[1]
            exact[path] = row[0]
            loose[path.precomposedStringWithCanonicalMapping.lowercased()] = row[0]
        }
    }

    func id(of path: String) -> Int64? {
        exact[path] ?? loose[path.precomposedStringWithCanonicalMapping.lowercased()]
    }
}
