import ClickWheelCore
import ClickWheelTestKit
import Foundation
import GRDB
@testable import Library
import Synchronization
import Testing

/// A clock the test sets: synchronised or not, the boot clock, the wall clock, the boot id.
final class TestClock: Sendable {
    struct State {
        var synced = false
        var bootMS: Int64 = 1_000_000
        var unixMS: Int64 = 86_400_000  // 2 January 1970: a Pi without RTC before NTP
    }
    let state = Mutex(State())
    let bootID: String

    init(bootID: String = "boot-a") { self.bootID = bootID }

    var clock: ScrobbleClock {
        ScrobbleClock(
            isSynchronised: { self.state.withLock { $0.synced } }, bootID: bootID,
            bootMS: { self.state.withLock { $0.bootMS } }, unixMS: { self.state.withLock { $0.unixMS } })
    }

    /// Time passes on both clocks.
    func advance(ms: Int64) {
        state.withLock {
            $0.bootMS += ms; $0.unixMS += ms
        }
    }
    /// NTP sets the wall clock to `unixMS` and says it is synchronised.
    func sync(unixMS: Int64) {
        state.withLock {
            $0.unixMS = unixMS; $0.synced = true
        }
    }
}

/// The scrobble log against a real SQLite file (the fixture library indexed) and a real log file, with
/// the clock a test's: its format, its header, the queue across restarts, the clock rule, crashes.
@Suite struct ScrobbleLogTests {
    static let header = "#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/ClickWheel 9.9\n"

    struct Setup {
        let dir: TempDir
        let db: String
        let pool: DatabasePool
        let songs: [TrackID]
        var log: String { dir.file("music/.scrobbler.log").path }

        func scrobbleLog(
            _ clock: TestClock, pool: DatabasePool? = nil, poll: Double = 60, logs: LogCapture = LogCapture()
        )
            -> ScrobbleLog
        {
            ScrobbleLog(
                path: log, queue: ScrobbleQueue(pool ?? self.pool), clock: clock.clock, version: "9.9",
                pollSeconds: poll, logger: logs.logger)
        }

        func text() -> String? { try? String(contentsOfFile: log, encoding: .utf8) }
        func waiting() throws -> Int { try ScrobbleQueue(pool).count() }
    }

    /// The fixture library indexed; the first song retagged with a tab, line breaks and a MusicBrainz id.
    func setup() throws -> Setup {
        let dir = TempDir()
        let db = dir.file("lib.sqlite").path
        let pool = try LibraryDatabase.open(at: db)
        try index(TestPaths.fixtureMusic.path, into: pool)
        let songs = try LibraryStore(pool).trackIDs(of: .songs)
        try pool.write { db in
            try db.execute(
                sql: """
                    UPDATE tracks SET artist = 'Tab\tArtist', album = 'Line\nBreak', title = 'CR\r\nLF', track_number = 7,
                    duration_ms = 200400, musicbrainz_trackid = '0a1b2c3d-0000-4000-8000-123456789abc' WHERE id = ?
                    """, arguments: [songs[0]])
            try db.execute(
                sql: """
                    UPDATE tracks SET artist = 'Plain', album = 'Album', title = 'Second', track_number = NULL,
                    duration_ms = 61600, musicbrainz_trackid = NULL WHERE id = ?
                    """, arguments: [songs[1]])
        }
        return Setup(dir: dir, db: db, pool: pool, songs: songs)
    }

    static let first = "Tab Artist\tLine Break\tCR  LF\t7\t200\t"
    static let second = "Plain\tAlbum\tSecond\t\t62\t"

    @Test func aLineIsEightTabSeparatedFieldsAndTagsNeverBreakIt() {
        let s = Scrobble(
            artist: "A\tB", album: "C\nD\rE", title: "F\u{2028}G\u{85}H", trackNumber: nil, durationSeconds: 31,
            rating: .skipped, startUnix: 1_700_000_000, musicBrainzTrackID: nil)
        #expect(s.line == "A B\tC D E\tF G H\t\t31\tS\t1700000000\t\n")
        var l = s
        l.rating = .listened
        l.trackNumber = 3
        l.musicBrainzTrackID = "id\t"
        #expect(l.line == "A B\tC D E\tF G H\t3\t31\tL\t1700000000\tid \n")
        #expect(l.line.split(separator: "\t", omittingEmptySubsequences: false).count == 8)
        #expect(Scrobble.header(version: "1.2") == "#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/ClickWheel 1.2\n")
    }

    @Test func withTheClockRightListensAreWrittenAtOnceAfterOneHeader() throws {
        let s = try setup()
        let clock = TestClock()
        clock.sync(unixMS: 1_700_000_000_000)
        let log = s.scrobbleLog(clock)
        log.record(s.songs[0], .listened, positionMS: 100_200)  // began 100.2 s ago
        log.record(s.songs[1], .skipped, positionMS: 3_000)
        log.flushNow()
        #expect(
            s.text()
                == Self.header + Self.first + "L\t1699999899\t0a1b2c3d-0000-4000-8000-123456789abc\n" + Self.second
                + "S\t1699999997\t\n")
        #expect(try s.waiting() == 0)
        // Another run appends to the same file: no second header.
        clock.advance(ms: 500_000)
        let again = s.scrobbleLog(clock)
        again.record(s.songs[1], .listened, positionMS: 31_000)
        again.flushNow()
        let lines = s.text()?.split(separator: "\n") ?? []
        #expect(lines.count == 6)
        #expect(lines.last == Substring(Self.second + "L\t1700000469\t"))
        // An emptied file (a tool uploaded and cleared it) gets the header again.
        try Data().write(to: URL(fileURLWithPath: s.log))
        again.record(s.songs[1], .listened, positionMS: 0)
        again.flushNow()
        #expect(s.text() == Self.header + Self.second + "L\t1700000500\t\n")
    }

    @Test func aDeletedTrackQueuesNothing() throws {
        let s = try setup()
        let clock = TestClock()
        clock.sync(unixMS: 1_700_000_000_000)
        let log = s.scrobbleLog(clock)
        log.record(999_999, .listened, positionMS: 1000)
        log.flushNow()
        #expect(try s.waiting() == 0)
        #expect(s.text() == nil, "nothing to write: no file")
    }

    @Test func beforeTheSyncListensWaitThenTheirStartIsWorkedBackFromTheBootClock() throws {
        let s = try setup()
        let clock = TestClock()
        let log = s.scrobbleLog(clock)
        log.record(s.songs[0], .listened, positionMS: 120_000)  // boot clock 1,000,000: began at 880,000
        clock.advance(ms: 30_000)
        log.record(s.songs[1], .skipped, positionMS: 2_000)  // boot clock 1,030,000: began at 1,028,000
        log.flushNow()
        #expect(s.text() == nil, "the clock is not known right: nothing written")
        #expect(try s.waiting() == 2)
        // 60 s later NTP sets the clock: boot clock 1,090,000 is 1,700,000,000,000.
        clock.advance(ms: 60_000)
        clock.sync(unixMS: 1_700_000_000_000)
        log.flushNow()
        #expect(
            s.text()
                == Self.header + Self.first + "L\t1699999790\t0a1b2c3d-0000-4000-8000-123456789abc\n" + Self.second
                + "S\t1699999938\t\n")
        #expect(try s.waiting() == 0)
    }

    @Test func waitingListensOutliveARestartInTheSameBootAndAreDroppedAfterAReboot() throws {
        let s = try setup()
        let clock = TestClock(bootID: "boot-a")
        s.scrobbleLog(clock).record(s.songs[0], .listened, positionMS: 100_000)
        // The service restarts (same boot): a new database connection, a new log; still unsynchronised.
        clock.advance(ms: 10_000)
        let reopened = try LibraryDatabase.open(at: s.db)
        let log = s.scrobbleLog(clock, pool: reopened)
        log.start()
        log.flushNow()
        #expect(s.text() == nil)
        clock.sync(unixMS: 1_700_000_000_000)
        log.flushNow()
        #expect(s.text() == Self.header + Self.first + "L\t1699999890\t0a1b2c3d-0000-4000-8000-123456789abc\n")

        // A listen made before the sync, then a reboot: its boot clock means nothing now.
        let unsynced = TestClock(bootID: "boot-a")
        s.scrobbleLog(unsynced).record(s.songs[1], .listened, positionMS: 40_000)
        let rebooted = TestClock(bootID: "boot-b")
        rebooted.sync(unixMS: 1_700_000_100_000)
        let logs = LogCapture()
        let after = s.scrobbleLog(rebooted, logs: logs)
        after.flushNow()
        #expect(try s.waiting() == 0)
        #expect(s.text() == Self.header + Self.first + "L\t1699999890\t0a1b2c3d-0000-4000-8000-123456789abc\n")
        #expect(logs.lines.filter { $0.contains("dropped 1 listen") }.count == 1, "\(logs.lines)")
        // A listen made with the clock right keeps its time: written in another boot, even unsynchronised.
        try ScrobbleQueue(s.pool).add(
            s.songs[1], rating: .listened, bootID: "boot-b", startBootMS: 5, startUnix: 1_700_000_150)
        s.scrobbleLog(TestClock(bootID: "boot-c")).flushNow()
        #expect(s.text()?.hasSuffix(Self.second + "L\t1700000150\t\n") == true)
    }

    @Test func whileListensWaitTheClockIsAskedAgainEveryFewSeconds() async throws {
        let s = try setup()
        let clock = TestClock()
        let log = s.scrobbleLog(clock, poll: 0.2)
        log.record(s.songs[1], .listened, positionMS: 31_000)
        try await Task.sleep(for: .milliseconds(500))
        #expect(s.text() == nil)
        clock.sync(unixMS: 1_700_000_000_000)
        var waited = 0
        while s.text() == nil && waited < 50 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(s.text() == Self.header + Self.second + "L\t1699999969\t\n", "written without another listen or flush")
        log.stop()
    }

    /// The crash window: the append noted in the database, then the file written (all, part or none of
    /// it), then the service killed before the delete.
    @Test func anAppendCutShortByACrashIsNeitherLostNorDoubled() throws {
        let s = try setup()
        let clock = TestClock()
        clock.sync(unixMS: 1_700_000_000_000)
        let queue = ScrobbleQueue(s.pool)
        let line = Self.second + "L\t1699999990\t\n"
        func crashed(writing written: String, noting offset: Int64) throws {
            try queue.add(s.songs[1], rating: .listened, bootID: "boot-a", startBootMS: 0, startUnix: 1_699_999_990)
            try queue.markAppending(try queue.all().map(\.id), at: offset)
            let h = try FileHandle(forWritingTo: URL(fileURLWithPath: s.log))
            try h.seekToEnd()
            try h.write(contentsOf: Data(written.utf8))
            try h.close()
        }
        try FileManager.default.createDirectory(atPath: s.dir.file("music").path, withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: s.log, contents: Data(Self.header.utf8)))
        let base = Int64(Self.header.utf8.count)

        // All of it written and synced: only the delete was missing. No duplicate.
        try crashed(writing: line, noting: base)
        s.scrobbleLog(clock).flushNow()
        #expect(s.text() == Self.header + line)
        #expect(try s.waiting() == 0)

        // Half a line written (power cut mid-append): cut back, written whole.
        let at = base + Int64(line.utf8.count)
        try crashed(writing: String(line.prefix(9)), noting: at)
        s.scrobbleLog(clock).flushNow()
        #expect(s.text() == Self.header + line + line)

        // Nothing written: written now, once.
        try crashed(writing: "", noting: at + Int64(line.utf8.count))
        s.scrobbleLog(clock).flushNow()
        #expect(s.text() == Self.header + line + line + line)
        #expect(try s.waiting() == 0)

        // The file emptied by a tool meanwhile: shorter than the noted offset, so written again.
        try crashed(writing: "", noting: 10_000)
        try Data().write(to: URL(fileURLWithPath: s.log))
        s.scrobbleLog(clock).flushNow()
        #expect(s.text() == Self.header + line)
        #expect(try s.waiting() == 0)
    }
}
