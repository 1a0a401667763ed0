import ClickWheelConfig
import Foundation
import Testing

/// `scrobble_log` (off by default, `~/` expanded) and `clock_synced_file` (an absolute path or nothing).
@Suite struct ScrobbleConfigTests {
    @Test func offByDefaultThenFromTheFileAndTheEnvironment() throws {
        let loader = ConfigLoader(environment: ["HOME": "/home/pi"])
        var c = try loader.load(file: nil)
        #expect(c.scrobbleLog == nil && c.clockSyncedFile == nil)
        let path = "/tmp/cw-scrobble-\(UUID().uuidString.prefix(8)).yaml"
        defer { unlink(path) }
        try "scrobble_log: ~/.scrobbler.log\nclock_synced_file: /run/systemd/timesync/synchronized\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        c = try loader.load(file: path)
        #expect(c.scrobbleLog == "/home/pi/.scrobbler.log")
        #expect(c.clockSyncedFile == "/run/systemd/timesync/synchronized")
        let env = ConfigLoader(environment: ["HOME": "/h", "CLICKWHEEL_CLOCK_SYNCED_FILE": "synced"])
        do {
            _ = try env.load(file: path)
            Issue.record("a relative clock_synced_file was accepted")
        } catch {
            #expect(
                error.description.contains("CLICKWHEEL_CLOCK_SYNCED_FILE: 'synced': must be an absolute path"),
                "\(error)")
        }
    }
}
