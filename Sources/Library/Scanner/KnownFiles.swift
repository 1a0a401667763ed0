import Foundation
public import GRDB

/// What the database knew before a scan: every track's path, size, mtime and fingerprint, and the
/// files skipped last time, keyed by raw path bytes.
struct KnownFiles {
    struct Track {
        var id: Int64
        var size: Int
        var mtimeNS: Int64
        var fingerprint: Int64
        var addedAt: Int64
    }

    struct Problem {
        var size: Int
        var mtimeNS: Int64
    }

    var tracks: [RawPath: Track] = [:]
    /// Files skipped last time (not indexed): unchanged ones are not reopened.
    var skipped: [RawPath: Problem] = [:]
    /// Every path with a recorded problem.
    var problems: [RawPath: Problem] = [:]
    /// True when the last scan was killed before its finishing step.
    var unfinished = false

    init(db: Database) throws {
        tracks.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM tracks") ?? 0)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, path, path_bytes, size, mtime_ns, fingerprint, added_at FROM tracks")
        while let row = try rows.next() {
            let raw = Self.raw(row[2] as Data?, row[1] as String)
            tracks[raw] = Track(id: row[0], size: row[3], mtimeNS: row[4], fingerprint: row[5], addedAt: row[6])
        }
        for row in try Row.fetchAll(db, sql: "SELECT path, path_bytes, size, mtime_ns, skipped FROM scan_problems") {
            let raw = Self.raw(row[1] as Data?, row[0] as String)
            let p = Problem(size: row[2], mtimeNS: row[3])
            problems[raw] = p
            if row[4] as Bool { skipped[raw] = p }
        }
        unfinished = try String.fetchOne(db, sql: "SELECT value FROM library_meta WHERE key = 'scan_unfinished'") != nil
    }

    static func raw(_ bytes: Data?, _ path: String) -> RawPath { RawPath(bytes.map { Array($0) } ?? Array(path.utf8)) }
}

/// The `scan_problems` table: what `clickwheel index --report` lists.
enum ProblemStore {
    static func record(path raw: [UInt8], size: Int, mtimeNS: Int64, skipped: Bool, _ problem: ScanProblem, _ db: Database) throws {
        let path = TrackPath(raw: raw)
        try db.cachedStatement(sql: """
            INSERT INTO scan_problems (path, path_bytes, size, mtime_ns, skipped, kind, reason) VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [path.display, path.bytes.map { Data($0) }, size, mtimeNS, skipped, problem.kind, problem.reason])
    }

    static func clear(path: TrackPath, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM scan_problems WHERE path = ? AND ifnull(path_bytes, x'') = ?")
            .execute(arguments: [path.display, Data(path.bytes ?? [])])
    }

    /// Drops problems of files that are gone, and of walk-level entries (loops), which each walk re-finds.
    static func forget(pathsOtherThan seen: Set<RawPath>, known: KnownFiles, _ db: Database) throws {
        for path in known.problems.keys where !seen.contains(path) {
            try clear(path: TrackPath(raw: path.bytes), db)
        }
    }

    /// Every recorded problem, in path order.
    static func all(_ db: Database) throws -> [(path: String, skipped: Bool, problem: ScanProblem)] {
        try Row.fetchAll(db, sql: "SELECT path, skipped, kind, reason FROM scan_problems ORDER BY path, kind").map {
            (path: $0[0], skipped: $0[1], problem: ScanProblem($0[2], $0[3]))
        }
    }
}

/// The problems the last scans recorded: what `clickwheel index --report` prints.
public enum ScanReport {
    /// One recorded problem.
    public struct Line: Codable, Equatable, Sendable {
        public var path: String
        /// True when the file is not indexed.
        public var skipped: Bool
        public var kind: String
        public var reason: String
    }

    public static func lines(_ db: any DatabaseReader) throws -> [Line] {
        try db.read { try ProblemStore.all($0) }.map {
            Line(path: $0.path, skipped: $0.skipped, kind: $0.problem.kind, reason: $0.problem.reason)
        }
    }
}
