import ClickWheelTestKit
import Foundation
import GRDB
@testable import Library
import Testing

/// A scan killed with SIGKILL at a random moment leaves a consistent database; the next run finishes it.
@Suite struct KillMidScanTests {
    @Test func sigkillMidScanThenRescanGivesACompleteConsistentLibrary() throws {
        let dir = TempDir()
        let music = dir.file("music").path
        // 500 folders holding the six Duration fixtures: 3,000 files to read.
        let sources = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixtureMusic.path + "/Durations")
            .filter { $0.hasSuffix(".mp3") }.sorted()
        let copies = 500
        for i in 0..<copies {
            let folder = music + "/Artist \(i % 23)/Album \(i)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for s in sources {
                try FileManager.default.copyItem(atPath: TestPaths.fixtureMusic.path + "/Durations/" + s, toPath: folder + "/" + s)
            }
        }
        let total = copies * sources.count
        let db = dir.file("lib.sqlite").path

        let child = try ChildProcess(TestPaths.clickwheel, ["index", "--music", music, "--db", db, "--threads", "1"])
        // Wait until some batches are committed, then kill without warning.
        var indexedBeforeKill = 0
        var reader: DatabaseQueue?
        for _ in 0..<3000 {
            usleep(5_000)
            if reader == nil, FileManager.default.fileExists(atPath: db) {
                var config = Configuration()
                config.readonly = true
                reader = try? DatabaseQueue(path: db, configuration: config)
            }
            if let n = try? reader?.read({ try Int.fetchOne($0, sql: "SELECT count(*) FROM tracks") }), n > 0 {
                indexedBeforeKill = n
                break
            }
            if child.hasExited { break }
        }
        child.kill(SIGKILL)
        let result = child.wait()
        reader = nil
        #expect(result.status == 128 + SIGKILL, "the scan finished before it could be killed")
        #expect(indexedBeforeKill > 0 && indexedBeforeKill < total)

        // The killed database opens, is intact, and says its last scan did not finish.
        let pool = try LibraryDatabase.open(at: db)
        try pool.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchOne(db, sql: "SELECT value FROM library_meta WHERE key = 'scan_unfinished'") == "1")
            // Every committed track is complete: it has its album and artist rows.
            #expect(try Int.fetchOne(db, sql: """
                SELECT count(*) FROM tracks t LEFT JOIN albums a ON a.id = t.album_id WHERE a.id IS NULL
                """) == 0)
        }
        let committed = try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tracks")! }

        // The next run reads only what is missing and finishes the job.
        let summary = try index(music, into: pool)
        #expect(summary.added == total - committed)
        #expect(summary.unchanged == committed)
        #expect(summary.tracks == total)
        try pool.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "SELECT value FROM library_meta WHERE key = 'scan_unfinished'") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM tracks WHERE ord IS NULL") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(DISTINCT ord) FROM tracks") == total)
            // The copies carry the fixtures' tags: one album, "Durations", by one artist.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM albums") == 1)
        }
    }
}
