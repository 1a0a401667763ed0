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

    /// Where a song's embedded picture is (the front cover, else the first), for `readpicture`:
    /// nil when there is no such song; `picture` nil when it has none, or none that can be read
    /// in place (an unsynchronised or compressed frame).
    public func artwork(path: String) throws -> (song: Bool, picture: (mime: String, offset: Int64, size: Int)?)? {
        try db.read { db in
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT artwork_mime, artwork_offset, artwork_size FROM tracks WHERE path = ?"),
                arguments: [path])
            else { return nil }
            guard let offset = row[1] as Int64?, let size = row[2] as Int? else { return (true, nil) }
            return (true, (row[0] as String? ?? "image/jpeg", offset, size))
        }
    }
}
