import ClickWheelTestKit
import Foundation
import Testing

/// `--demo` and the install kit, end to end: the real binary makes the demo library with the real
/// `lame`, indexes it into a real SQLite file, and shows it in tmux as a person would see it; the
/// install script's dry run and the systemd units are checked as text and with `systemd-analyze`.
@Suite(.serialized) struct DemoLibraryTests {
    typealias T = TerminalDemoTests
    static let lameMissing = "clickwheel: --demo needs the 'lame' encoder (apt-get install lame)"

    /// A private home: data, runtime and home folders under a temporary directory, and an empty configuration.
    struct Home {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cw-demo-\(UUID().uuidString)")
        var data: String { root.path + "/data" }
        var demo: String { data + "/clickwheel/demo" }
        var demoDB: String { data + "/clickwheel/demo.sqlite" }
        var config: String { root.path + "/empty.yaml" }

        init() throws {
            for dir in ["data", "run", "home"] {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(dir), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            try Data().write(to: URL(fileURLWithPath: config))
        }

        var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["XDG_DATA_HOME"] = data
            env["XDG_RUNTIME_DIR"] = root.path + "/run"
            env["HOME"] = root.path + "/home"
            for key in env.keys where key.hasPrefix("CLICKWHEEL_") { env[key] = nil }
            return env
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// Runs `clickwheel index … --json` and returns the summary.
    func index(_ args: [String], home: Home) throws -> [String: Double] {
        let r = try ChildProcess.run(
            T.binary, ["index", "--config", home.config, "--json"] + args, environment: home.environment)
        #expect(r.status == 0, "index failed: \(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// Rows of a query against a SQLite file (python3's sqlite3 module), columns joined by "|".
    func sql(_ db: String, _ query: String) throws -> [String] {
        let script = """
            import sqlite3, sys
            for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
                print("|".join("" if v is None else str(v) for v in row))
            """
        let r = try ChildProcess.run("python3", ["-c", script, db, query])
        #expect(r.status == 0, "query failed: \(query): \(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func theDemoLibraryIsMadeOnceTaggedAndIndexedWithEveryKindOfEntry() throws {
        let home = try Home()
        defer { home.remove() }
        // What an interrupted run by a process that is gone left behind is cleared away.
        let abandoned = home.data + "/clickwheel/demo.partial-4000000"
        try FileManager.default.createDirectory(atPath: abandoned + "/Half Album", withIntermediateDirectories: true)

        let first = try index(["--demo"], home: home)
        #expect(first["tracks"] == 22 && first["playlists"] == 1 && first["skipped"] == 0 && first["added"] == 22)
        #expect(FileManager.default.fileExists(atPath: home.demo + "/.clickwheel-demo"))
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(
            !FileManager.default.fileExists(atPath: home.data + "/clickwheel/library.sqlite"),
            "the real database is untouched")

        // Made once: the second run reuses every file as it is.
        let again = try index(["--demo"], home: home)
        #expect(again["unchanged"] == 22 && again["added"] == 0 && again["updated"] == 0)

        // The folder is an ordinary music folder: indexing it by path gives the same library.
        let db = home.root.path + "/by-path.sqlite"
        let byPath = try index(["--music", home.demo, "--db", db, "--report"], home: home)
        #expect(byPath["tracks"] == 22 && byPath["playlists"] == 1 && byPath["skipped"] == 0)
        #expect(try sql(db, "SELECT count(*) FROM scan_problems") == ["0"])

        // The Artists and Albums menus (rows with a menu position; podcasts have their own menu).
        #expect(
            try sql(db, "SELECT name FROM artists WHERE ord IS NOT NULL ORDER BY ord") == [
                "Aurora Tones", "Low Pass Filter", "Mira Velásquez", "The Square Waves", "Various Artists",
            ])
        #expect(
            try sql(db, "SELECT title, year FROM albums WHERE ord IS NOT NULL ORDER BY ord") == [
                "Daybreak|2022", "Demo Hits, Vol. 1|2020", "Eight-Bit Summer|2021", "Études for Sine|2015",
                "Night Drive|2023", "Sine Waves|2019",
            ])
        #expect(
            try sql(
                db,
                "SELECT a.title, r.name, r.is_various FROM albums a JOIN artists r ON r.id = a.artist_id WHERE a.is_compilation"
            ) == [
                "Demo Hits, Vol. 1|Various Artists|1"
            ])
        #expect(try sql(db, "SELECT count(*), count(DISTINCT artist) FROM tracks WHERE is_compilation") == ["4|4"])
        #expect(
            try sql(db, "SELECT name FROM composers ORDER BY ord") == [
                "Christian Petzold", "Kiko Tanaka", "Ludwig van Beethoven", "Wolfgang Amadeus Mozart",
            ])
        #expect(
            try sql(
                db,
                "SELECT t.title, c.name FROM tracks t JOIN composers c ON c.id = t.composer_id WHERE t.title = 'Ode to Joy'"
            ) == [
                "Ode to Joy|Ludwig van Beethoven"
            ])
        #expect(
            try sql(db, "SELECT name FROM genres ORDER BY ord") == [
                "Ambient", "Classical", "Electronic", "Podcast", "Pop", "Rock",
            ])
        #expect(
            try sql(
                db, "SELECT count(*) FROM tracks WHERE NOT is_podcast AND track_number IS NOT NULL AND year IS NOT NULL"
            ) == ["19"])
        // Every track is a tone of a few seconds to 20 s, mono, 44.1 kHz.
        #expect(
            try sql(
                db,
                "SELECT min(duration_ms) >= 3000, max(duration_ms) <= 21000, min(channels), max(channels), min(sample_rate), max(sample_rate) FROM tracks"
            ) == [
                "1|1|1|1|44100|44100"
            ])

        // The podcast: one show, three episodes, newest first, with their release dates.
        #expect(try sql(db, "SELECT title FROM podcast_shows") == ["The Tone Hour"])
        #expect(
            try sql(
                db,
                "SELECT t.title, e.release_date FROM podcast_episodes e JOIN tracks t ON t.id = e.track_id ORDER BY e.release_date DESC"
            ) == [
                "Ep. 3: Octaves and You|2024-03-01", "Ep. 2: Square Deal|2024-02-02",
                "Ep. 1: What Is a Sine Wave?|2024-01-05",
            ])

        // The playlist and its five entries, every one found.
        #expect(
            try sql(
                db,
                "SELECT p.name, count(e.track_id), count(*) FROM playlists p JOIN playlist_entries e ON e.playlist_id = p.id WHERE p.path IS NOT NULL GROUP BY p.id"
            ) == [
                "Road Trip|5|5"
            ])
    }

    @Test func withoutLameTheDemoStopsWithOneClearLine() throws {
        let home = try Home()
        defer { home.remove() }
        var env = home.environment
        env["PATH"] = home.root.path + "/no-tools"
        for args in [["index", "--demo"], ["run", "--demo", "--output", "null", "--display", "none"]] {
            let r = try ChildProcess.run(T.binary, args + ["--config", home.config], environment: env)
            #expect(r.status == 1)
            #expect(r.stderr == Self.lameMissing + "\n")
            #expect(!FileManager.default.fileExists(atPath: home.demo))
        }
    }

    @Test func aFolderThatIsNotADemoLibraryIsNeverTouched() throws {
        let home = try Home()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.demo, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: home.demo + "/notes.txt"))
        let r = try ChildProcess.run(T.binary, ["index", "--demo", "--config", home.config], environment: home.environment)
        #expect(r.status == 1)
        #expect(r.stderr == "clickwheel: \(home.demo) exists but is not a demo library; move it away\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.demo) == ["notes.txt"])
    }

    @Test func runDemoShowsTheDemoArtistsAndThePodcastOnTheTerminal() throws {
        let home = try Home()
        defer { home.remove() }
        let env = home.environment
        let command =
            "env XDG_DATA_HOME='\(env["XDG_DATA_HOME"]!)' XDG_RUNTIME_DIR='\(env["XDG_RUNTIME_DIR"]!)' HOME='\(env["HOME"]!)' "
            + "'\(T.binary)' run --demo --output null --config '\(home.config)'; echo EXITED $?"
        let t = try T.Tmux(command)
        try t.wait(for: ">Music", seconds: 300)  // the first start makes the library (with a debug build: slowly)
        try t.keys("Enter")
        try t.wait(for: ">Playlists")
        try t.keys("j")
        try t.wait(for: ">Artists")
        try t.keys("Enter")
        // The background scan fills the list in; the artists come in Artists-menu order.
        let artists = try t.wait(for: "Low Pass Filter")
        #expect(artists.contains(">Aurora Tones"))
        try t.keys("j", "j")
        try t.wait(for: ">Mira Velásquez")
        try t.keys("Escape")
        try t.wait(for: ">Artists")
        try t.keys("Escape")
        try t.wait(for: ">Music")
        try t.keys("j")
        try t.wait(for: ">Podcasts")
        try t.keys("Enter")
        try t.wait(for: ">Refresh")  // the podcast service's row above the shows
        try t.keys("j")
        try t.wait(for: ">The Tone Hour")
        try t.keys("Enter")
        try t.wait(for: ">Ep. 3: Octaves")  // newest episode first
        try t.keys("q")
        try t.wait(for: "EXITED 0")
        #expect(FileManager.default.fileExists(atPath: home.demoDB), "the demo has a database of its own")
        #expect(!FileManager.default.fileExists(atPath: home.data + "/clickwheel/library.sqlite"))
    }
}
