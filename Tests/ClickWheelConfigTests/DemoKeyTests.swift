import ClickWheelConfig
import Foundation
import Testing

/// The `demo` key: from the file, the environment (`CLICKWHEEL_DEMO`) or `--demo`, it points the
/// music folder and the database at the demo library under `$XDG_DATA_HOME/clickwheel/`.
@Suite struct DemoKeyTests {
    let env = ["HOME": "/home/pi", "XDG_DATA_HOME": "/data"]

    @Test func offByDefaultAndTheRealLibraryIsUsed() throws {
        let c = try ConfigLoader(environment: env).load(file: nil)
        #expect(!c.demo)
        #expect(c.music == "/home/pi/Music" && c.db == "/data/clickwheel/library.sqlite")
    }

    @Test func theFlagReplacesMusicAndDatabaseWhateverSetThem() throws {
        let loader = ConfigLoader(environment: env.merging(["CLICKWHEEL_DB": "/srv/real.sqlite"]) { a, _ in a })
        let c = try loader.load(file: nil, flags: ["demo": "true", "music": "/srv/music"])
        #expect(c.demo)
        #expect(c.music == "/data/clickwheel/demo")
        #expect(c.db == "/data/clickwheel/demo.sqlite")
        #expect(c.db != (try loader.load(file: nil).db), "the real library's database is never the demo's")
    }

    @Test func theEnvironmentAndTheFileSetItToo() throws {
        let viaEnv = try ConfigLoader(environment: env.merging(["CLICKWHEEL_DEMO": "yes"]) { a, _ in a }).load(
            file: nil)
        #expect(viaEnv.demo && viaEnv.music == "/data/clickwheel/demo")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-demo-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("clickwheel.yaml")
        try "music: /srv/music\ndemo: true\n".write(to: file, atomically: true, encoding: .utf8)
        let viaFile = try ConfigLoader(environment: ["HOME": "/home/pi"]).load(file: file.path)
        #expect(viaFile.music == "/home/pi/.local/share/clickwheel/demo")
        #expect(viaFile.db == "/home/pi/.local/share/clickwheel/demo.sqlite")
        // A flag turns it off again.
        #expect(
            try ConfigLoader(environment: ["HOME": "/h"]).load(file: file.path, flags: ["demo": "false"]).music
                == "/srv/music")
    }

    @Test func aBadValueSaysWhere() throws {
        do {
            _ = try ConfigLoader(environment: env.merging(["CLICKWHEEL_DEMO": "maybe"]) { a, _ in a }).load(file: nil)
            Issue.record("CLICKWHEEL_DEMO=maybe was accepted")
        } catch {
            #expect(error.description == "environment CLICKWHEEL_DEMO: 'maybe': must be true or false")
        }
    }
}
