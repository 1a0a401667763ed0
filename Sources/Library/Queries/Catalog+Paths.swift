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
}
