import ClickWheelCore
import Foundation
import GRDB
import Logging

/// Reads `.m3u`/`.m3u8` files of the music folder into `playlists` and `playlist_entries`.
///
/// Entries are resolved against the playlist's folder (or the music folder for absolute paths inside
/// it); Windows backslashes are turned into slashes; `.m3u` files that are not valid UTF-8 are read as
/// Latin-1/CP1252; entries that point at no indexed track are kept with a NULL track id.
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
            let entries = Self.parse(data, playlistPath: path, root: root)
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

    /// The entries of a playlist file as paths relative to the music folder.
    static func parse(_ data: Data, playlistPath: String, root: String = "") -> [String] {
        let bytes = [UInt8](data)
        var text = String(validating: bytes, as: UTF8.self) ?? TextDecoding.id3v1(bytes)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let folder = playlistPath.split(separator: "/").dropLast().map(String.init)
        var out: [String] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = String(rawLine).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            line = line.replacingOccurrences(of: "\\", with: "/")
            if line.hasPrefix("file://") { line = String(line.dropFirst(7)).removingPercentEncoding ?? line }
            if line.contains("://") { continue }  // streams are not part of the library
            if !root.isEmpty, line.hasPrefix(root + "/") { line = String(line.dropFirst(root.count + 1)) }
            var parts: [String] = line.hasPrefix("/") ? [] : folder
            for c in line.split(separator: "/") {
                if c == "." { continue }
                if c == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
                parts.append(String(c))
            }
            out.append(parts.joined(separator: "/"))
        }
        return out
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
