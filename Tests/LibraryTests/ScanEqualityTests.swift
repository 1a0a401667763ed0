import Foundation
import GRDB
@testable import Library
import Testing

/// The database a full index writes, every table and column, against a golden dump made by the
/// scanner before the cold-read change (issue 23): reading exact ranges must change no stored byte.
///
/// Two libraries: `Fixtures/scan-equality` (the odd layouts: header frames, Xing-less streams, tag
/// versions and options, several APICs, damage; made by `make-scan-equality.py`) and the fixture
/// library of `FixtureIndexTests`. Regenerate with `CLICKWHEEL_UPDATE_GOLDEN=1` only when a change
/// of the stored values is meant.
@Suite(.serialized) struct ScanEqualityTests {
    /// Columns that depend on when the test runs or when the files were checked out, not on the
    /// scanner's reading: the row's insertion time and the files' mtimes.
    static let excluded: Set<String> = ["tracks.added_at", "tracks.mtime_ns", "scan_problems.mtime_ns",
                                        "playlists.mtime_ns"]

    /// Every row of every table, ordered by all its columns (some tables have no rowid), one line per
    /// row: `table: column=value, …`.
    static func dump(_ pool: DatabasePool) throws -> String {
        try pool.read { db in
            var out = ""
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                """)
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\"\(table)\")").count
                let order = (1...columns).map(String.init).joined(separator: ", ")
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY \(order)")
                out += "# \(table) (\(rows.count) rows)\n"
                for row in rows {
                    var fields: [String] = []
                    for (column, value) in row where !excluded.contains("\(table).\(column)") {
                        fields.append("\(column)=\(render(value))")
                    }
                    out += "\(table): " + fields.joined(separator: ", ") + "\n"
                }
            }
            return out
        }
    }

    static func render(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let i): "\(i)"
        case .double(let d): "\(d)"
        case .string(let s): s.debugDescription
        case .blob(let b): "x'" + b.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    static func check(music: URL, golden name: String) throws {
        let dir = TempDir()
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music.path, into: pool)
        let dump = try Self.dump(pool)
        let golden = TestPaths.root.appendingPathComponent("Tests/LibraryTests/Golden/\(name)")
        if ProcessInfo.processInfo.environment["CLICKWHEEL_UPDATE_GOLDEN"] == "1" {
            try dump.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        let got = dump.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, (g, w)) in zip(got, want).enumerated() where g != w {
            Issue.record("\(name) line \(i + 1) differs:\n  golden: \(w)\n  now:    \(g)")
        }
        #expect(got.count == want.count, "\(name): \(got.count) lines, golden \(want.count)")
    }

    @Test func oddLayoutsIndexAsBefore() throws {
        try Self.check(music: TestPaths.fixtures.appendingPathComponent("scan-equality"), golden: "scan-equality.dump")
    }

    @Test func fixtureLibraryIndexesAsBefore() throws {
        try Self.check(music: TestPaths.fixtureMusic, golden: "fixture-library.dump")
    }
}
