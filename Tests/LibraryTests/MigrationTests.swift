import Foundation
import GRDB
@testable import Library
import Testing

@Suite struct MigrationTests {
    @Test func builtInMigrationsEqualTheSQLFiles() throws {
        let folder = TestPaths.root.appendingPathComponent("Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(LibraryDatabase.migrations.map(\.name) == files.map { String($0.dropLast(4)) },
                "run contrib/dev/embed-migrations.py after changing Migrations/")
        for (migration, file) in zip(LibraryDatabase.migrations, files) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(migration.sql + "\n" == text, "\(file) differs from the built-in copy: run contrib/dev/embed-migrations.py")
        }
    }

    @Test func migratedSchemaMatchesTheGoldenDump() throws {
        let dir = TempDir()
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        let dump = try pool.read { db in
            try String.fetchAll(db, sql: """
                SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'grdb_%' ORDER BY type DESC, name
                """).joined(separator: ";\n\n") + ";\n"
        }
        let golden = TestPaths.root.appendingPathComponent("Tests/LibraryTests/Schema/schema.sql")
        if ProcessInfo.processInfo.environment["CLICKWHEEL_UPDATE_GOLDEN"] == "1" {
            try dump.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(dump == expected, "schema changed: if on purpose, rerun with CLICKWHEEL_UPDATE_GOLDEN=1")
    }

    @Test func databaseIsWALWithForeignKeys() throws {
        let dir = TempDir()
        let pool = try LibraryDatabase.open(at: dir.file("sub/dir/lib.sqlite").path)
        let (mode, fk) = try pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode")!, try Int.fetchOne(db, sql: "PRAGMA foreign_keys")!)
        }
        #expect(mode == "wal")
        #expect(fk == 1)
        // Reopening an up-to-date database applies nothing and keeps the data.
        try pool.write { try $0.execute(sql: "INSERT INTO genres (name, sort_key) VALUES ('Jazz', '0jazz')") }
        let again = try LibraryDatabase.open(at: dir.file("sub/dir/lib.sqlite").path)
        #expect(try again.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM genres") } == 1)
    }
}
