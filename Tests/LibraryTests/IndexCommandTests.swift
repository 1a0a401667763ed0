import Foundation
import GRDB
import Testing

/// `clickwheel index` as a user runs it: the real binary, real files, exit codes and output.
@Suite struct IndexCommandTests {
    let dir = TempDir()

    @Test func jsonSummaryAndReportListEveryBadFile() throws {
        let r = try runProcess(TestPaths.clickwheel, [
            "index", "--music", TestPaths.fixtureMusic.path, "--db", dir.file("lib.sqlite").path, "--json", "--report",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        for key in ["added", "updated", "removed", "skipped", "seconds"] { #expect(json[key] != nil, "missing \(key)") }
        #expect(json["added"] as? Int == FixtureIndexTests.expected.tracks.count)
        #expect(json["skipped"] as? Int == FixtureIndexTests.expected.skipped.count)
        let problems = json["problems"] as? [[String: Any]] ?? []
        #expect(problems.contains { $0["path"] as? String == "_bad/empty.mp3" && $0["kind"] as? String == "empty" })
        // Bad files are logged on stderr, once each, with the path and the reason.
        #expect(r.stderr.components(separatedBy: "_bad/random.mp3").count == 2)
    }

    @Test func rescanThatRereadsNothingStillReports() throws {
        let db = dir.file("lib.sqlite").path
        try runProcess(TestPaths.clickwheel, ["index", "--music", TestPaths.fixtureMusic.path, "--db", db])
        let r = try runProcess(TestPaths.clickwheel, ["index", "--music", TestPaths.fixtureMusic.path, "--db", db, "--report"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("added 0, updated 0, removed 0"))
        let lines = r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.contains { $0.count == 4 && $0[0] == "_bad/truncated.mp3" && $0[1] == "indexed" && $0[2] == "truncated" })
        #expect(lines.contains { $0.count == 4 && $0[0] == "_bad/._resource.mp3" && $0[1] == "skipped" && $0[2] == "appledouble" })
        #expect(!r.stderr.contains("_bad/random.mp3"), "an unchanged bad file is not logged again")
    }

    @Test func missingMusicFolderIsAUsageError() throws {
        let r = try runProcess(TestPaths.clickwheel, ["index", "--music", dir.file("nope").path, "--db", dir.file("x.sqlite").path])
        #expect(r.status == 64)
        #expect(r.stderr.contains("does not exist"))
    }

    @Test func unwritableDatabaseIsARuntimeFailureWithOneLine() throws {
        try Data("not a database, just a file".utf8).write(to: dir.file("blocker"))
        let r = try runProcess(TestPaths.clickwheel, [
            "index", "--music", TestPaths.fixtureMusic.path, "--db", dir.file("blocker/lib.sqlite").path,
        ])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("clickwheel:") }
        #expect(lines.count == 1)
    }

    @Test func corruptDatabaseFileIsRefusedNotOverwritten() throws {
        let db = dir.file("lib.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try garbage.write(to: db)
        let r = try runProcess(TestPaths.clickwheel, ["index", "--music", TestPaths.fixtureMusic.path, "--db", db.path])
        #expect(r.status == 1)
        #expect(try Data(contentsOf: db) == garbage)
    }

    @Test func helpDescribesTheContract() throws {
        let r = try runProcess(TestPaths.clickwheel, ["index", "--help"])
        for flag in ["--music", "--db", "--report", "--json"] { #expect(r.stdout.contains(flag)) }
    }
}

extension IndexCommandTests {
    @Test func aBadConfigurationFileStopsTheServiceWithFileLineAndColumn() throws {
        let config = dir.file("clickwheel.yaml")
        try "music: \(TestPaths.fixtureMusic.path)\nlcd: 16x2\nvolume: 150\n".write(to: config, atomically: true, encoding: .utf8)
        for command in ["run", "index"] {
            let r = try runProcess(TestPaths.clickwheel, [command, "--config", config.path, "--db", dir.file("x.sqlite").path])
            #expect(r.status == 64, "\(command)")
            #expect(r.stderr.contains("clickwheel.yaml:3:9: 'volume' must be 0–100"), "\(command): \(r.stderr)")
        }
    }

    @Test func theConfigurationFileNamesTheMusicFolder() throws {
        let config = dir.file("clickwheel.yaml")
        try "music: \(TestPaths.fixtureMusic.path)\n".write(to: config, atomically: true, encoding: .utf8)
        let r = try runProcess(TestPaths.clickwheel, ["index", "--config", config.path, "--db", dir.file("x.sqlite").path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"tracks\":\(FixtureIndexTests.expected.tracks.count)"))
    }
}
