import Foundation
import GRDB

extension Catalog {
    /// The track ids a client's URI names: the song with that path, else every song under that folder
    /// in path order ("" = the whole library). Empty when nothing matches.
    public func trackIDs(uri: String) throws -> [Int64] {
        try db.read { db in
            if uri.isEmpty {
                return try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM tracks ORDER BY path"))
            }
            if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM tracks WHERE path = ?"), arguments: [uri]) {
                return [id]
            }
            return try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM tracks WHERE path > ? AND path < ? ORDER BY path"),
                arguments: [uri + "/", uri + "0"])
        }
    }

    /// The song id of exactly this path, if it is a song.
    public func trackID(path: String) throws -> Int64? {
        try db.read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM tracks WHERE path = ?"), arguments: [path])
        }
    }

    /// The exact file name bytes of the song with this path, relative to the music folder (`path_bytes`
    /// when the name is not valid UTF-8: the text `path` then holds U+FFFD and names no file).
    public func file(path: String) throws -> [UInt8]? {
        try db.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT path, path_bytes FROM tracks WHERE path = ?"), arguments: [path])
                .map(Self.fileBytes)
        }
    }

    /// Where a song's embedded picture is (the front cover, else the first), for `readpicture`:
    /// nil when there is no such song; `picture` nil when it has none, or none that can be read
    /// in place (an unsynchronised or compressed frame). `file` is the song's exact name bytes.
    public func artwork(path: String) throws -> (file: [UInt8], picture: (mime: String, offset: Int64, size: Int)?)? {
        try db.read { db in
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT artwork_mime, artwork_offset, artwork_size, path, path_bytes FROM tracks WHERE path = ?
                    """),
                arguments: [path])
            else { return nil }
            let file = Self.fileBytes(Row(["path": row[3], "path_bytes": row[4]]))
            guard let offset = row[1] as Int64?, let size = row[2] as Int? else { return (file, nil) }
            return (file, (row[0] as String? ?? "image/jpeg", offset, size))
        }
    }

    static func fileBytes(_ row: Row) -> [UInt8] {
        (row["path_bytes"] as Data?).map { Array($0) } ?? Array((row["path"] as String).utf8)
    }
}
