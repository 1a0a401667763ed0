import ClickWheelCore
import Foundation
import GRDB
@testable import Library
import Testing

/// The resume checkpoint and play-state writes against a real SQLite file holding the indexed fixtures.
@Suite struct ResumeStoreTests {
    func indexed() throws -> (dir: TempDir, pool: DatabasePool, songs: [TrackID]) { try indexedFixtures() }

    @Test func aCheckpointComesBackAsItWasWritten() throws {
        let (dir, pool, songs) = try indexed()
        let store = ResumeStore(pool)
        #expect(try store.load() == nil)
        let queue = Array(songs.prefix(6).reversed())
        var state = ResumeState(
            queue: queue, unshuffledQueue: Array(songs.prefix(6)), current: 2, positionMS: 12_345, status: .playing)
        try store.save(state, savedAtMS: 1_700_000_000_123)
        state.savedAtMS = 1_700_000_000_123
        #expect(try store.load() == state)
        // Same queue: only the position, entry, status and time change (and a new store reads it all).
        state.current = 3
        state.positionMS = 99
        state.status = .paused
        state.savedAtMS = 1_700_000_004_000
        try store.save(state, savedAtMS: state.savedAtMS)
        let reopened = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        #expect(try ResumeStore(reopened).load() == state)
        // A new queue replaces the old one.
        let other = ResumeState(queue: [songs[0]], current: 0, positionMS: 0, status: .stopped, savedAtMS: 5)
        try store.save(other, savedAtMS: 5)
        #expect(try store.load() == other)
        #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM resume_state") } == 1)
    }

    @Test func tracksGoneFromTheLibraryAreDropped() throws {
        let (_, pool, songs) = try indexed()
        let store = ResumeStore(pool)
        let gone = songs[1]
        try store.save(
            ResumeState(queue: [songs[0], gone, songs[2]], current: 1, positionMS: 5000, status: .paused), savedAtMS: 1)
        try pool.write { try $0.execute(sql: "DELETE FROM tracks WHERE id = ?", arguments: [gone]) }
        #expect(
            try store.load()
                == ResumeState(queue: [songs[0], songs[2]], current: 1, positionMS: 0, status: .paused, savedAtMS: 1))
        // Nothing current left: the queue alone (the engine brings it back stopped).
        try store.save(ResumeState(queue: [songs[0], songs[2]], current: 1, positionMS: 0, status: .paused), savedAtMS: 2)
        try pool.write { try $0.execute(sql: "DELETE FROM tracks WHERE id = ?", arguments: [songs[2]]) }
        #expect(
            try store.load() == ResumeState(queue: [songs[0]], current: nil, positionMS: 0, status: .stopped, savedAtMS: 2))
        // Nothing left at all: nothing to restore.
        try pool.write { try $0.execute(sql: "DELETE FROM tracks WHERE id = ?", arguments: [songs[0]]) }
        #expect(try store.load() == nil)
    }

    /// Found by the soak: a stopped queue with no current entry (a client's `clear` then `add`) was not
    /// brought back after a kill; MPD's state file keeps it.
    @Test func aQueueWithNoCurrentEntryComesBack() throws {
        let (_, pool, songs) = try indexed()
        let store = ResumeStore(pool)
        let stopped = ResumeState(queue: [songs[2], songs[0]], current: nil, positionMS: 0, status: .stopped, savedAtMS: 3)
        try store.save(stopped, savedAtMS: 3)
        #expect(try store.load() == stopped)
        try store.save(ResumeState(queue: [], current: nil, positionMS: 0, status: .stopped), savedAtMS: 4)
        #expect(try store.load() == nil)
    }

    /// A play is counted in the same transaction as the checkpoint past it: both or neither.
    @Test func aPlayCountsWithItsCheckpointOrNotAtAll() throws {
        let (_, pool, songs) = try indexed()
        let store = ResumeStore(pool), plays = PlayStateStore(pool)
        let past = ResumeState(queue: [songs[0]], current: 0, positionMS: 6000, status: .playing, savedAtMS: 7)
        try store.save(past, savedAtMS: 7, alongWith: plays.countPlay(songs[0]))
        #expect(try store.load() == past)
        let count = "SELECT play_count FROM play_state WHERE track_id = ?"
        #expect(try pool.read { try Int.fetchOne($0, sql: count, arguments: [songs[0]]) } == 1)
        struct Refused: Error {}
        let later = ResumeState(queue: [songs[0]], current: 0, positionMS: 9000, status: .playing, savedAtMS: 8)
        #expect(throws: Refused.self) {
            try store.save(later, savedAtMS: 8) { db in
                try plays.countPlay(songs[0])(db)
                throw Refused()
            }
        }
        #expect(try store.load() == past)
        #expect(try pool.read { try Int.fetchOne($0, sql: count, arguments: [songs[0]]) } == 1)
    }

    @Test func idListsAreEightBytesEach() {
        let ids: [TrackID] = [1, 0, -1, Int64.max, 300, 1 << 40]
        let blob = ResumeStore.blob(ids)
        #expect(blob.count == 48)
        #expect(ResumeStore.ids(blob) == ids)
        #expect(ResumeStore.ids(Data([1, 0, 0])) == [])
    }

    @Test func playsSkipsAndLastPlayedAreCounted() throws {
        let (_, pool, songs) = try indexed()
        let plays = PlayStateStore(pool)
        let id = songs[0]
        try plays.played(id, at: 1000)
        try plays.played(id, at: 2000)
        try plays.skipped(id)
        try PlayStateStore(pool).rate(id, rating: 8)
        let row = try #require(try pool.read { try Row.fetchOne($0, sql: "SELECT * FROM play_state WHERE track_id = ?", arguments: [id]) })
        #expect(row["play_count"] == 2)
        #expect(row["last_played"] == 2000)
        #expect(row["skip_count"] == 1)
        #expect(row["rating"] == 8, "the rating stays")
        // A track that is gone is ignored, not an error.
        try plays.played(999_999)
        #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM play_state") } == 1)
    }

    @Test func episodesKeepTheirPlaceUntilFinished() throws {
        let (_, pool, _) = try indexed()
        let library = LibraryStore(pool)
        let plays = PlayStateStore(pool)
        let episode = try #require(try pool.read { try TrackID.fetchOne($0, sql: "SELECT id FROM tracks WHERE is_podcast = 1") })
        #expect(try library.bookmark(of: episode) == nil)
        try plays.bookmark(episode, ms: 61_000, at: 1_700_000_000)
        #expect(try library.bookmark(of: episode) == Bookmark(positionMS: 61_000, savedAtMS: 1_700_000_000_000))
        // The show's episode list marks it partly played.
        let show = try #require(try pool.read {
            try Int64.fetchOne($0, sql: "SELECT show_id FROM podcast_episodes WHERE track_id = ?", arguments: [episode])
        })
        #expect(try library.rows(of: .episodesOfShow(show), in: 0..<10).first { $0.id == episode }?.partlyPlayed == true)
        try plays.episodeFinished(episode)
        #expect(try library.bookmark(of: episode) == nil)
        let played = try pool.read { try Int.fetchOne($0, sql: "SELECT played FROM play_state WHERE track_id = ?", arguments: [episode]) }
        #expect(played == 1)
        // Listening again remembers a place again; 0 forgets it.
        try plays.bookmark(episode, ms: 5000, at: 1)
        #expect(try library.bookmark(of: episode)?.positionMS == 5000)
        try plays.bookmark(episode, ms: 0, at: 2)
        #expect(try library.bookmark(of: episode) == nil)
    }

    @Test func settingsStoredByAnOlderBuildKeepTheirValues() throws {
        let (_, pool, _) = try indexed()
        try pool.write {
            try $0.execute(sql: """
                INSERT OR REPLACE INTO library_meta (key, value) VALUES ('settings', '{"volume":70,"shuffle":1}')
                """)
        }
        let settings = SettingsStore(pool).load()
        #expect(settings.volume == 70)
        #expect(settings.shuffle == .songs)
        #expect(settings.resumePlaying == false)
        #expect(settings.spokenWordSpeed == 100)
        var changed = settings
        changed.resumePlaying = true
        // Alarms live in the settings: a snoozed one, with the minute it rang for, comes back whole.
        var alarm = Alarm(id: 2, hour: 6, minute: 45, days: Alarm.weekdays, sound: .podcast(id: 9, name: "News"))
        alarm.snoozeUntilUnixMS = 1_795_000_000_000
        alarm.lastRungLocalMinute = 29_916_645
        changed.alarms = [alarm]
        changed.clock24h = false
        changed.spokenWordSpeed = 175
        changed.crossfadeSeconds = 3
        changed.mixRampDB = -17
        changed.mixRampDelay = 2.5
        try SettingsStore(pool).save(changed)
        #expect(SettingsStore(pool).load() == changed)
        #expect(settings.crossfadeSeconds == 0 && settings.mixRampDB == 0 && settings.mixRampDelay == -1)
    }

    @Test func mpdsNanAndInfinityForMixRampAreStoredAndComeBack() throws {
        let (_, pool, _) = try indexed()
        var changed = Settings()
        changed.mixRampDB = .infinity
        changed.mixRampDelay = .nan
        changed.crossfadeSeconds = 5
        try SettingsStore(pool).save(changed)
        let loaded = SettingsStore(pool).load()
        #expect(loaded.mixRampDB == .infinity && loaded.mixRampDelay.isNaN && loaded.crossfadeSeconds == 5)
    }
}
