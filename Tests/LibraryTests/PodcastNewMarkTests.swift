import ClickWheelCore
import Foundation
import GRDB
@testable import Library
import Testing

/// The iPod's "New" rule for podcast episodes (`ListQuery.podcastMarks`) over a real library database
/// file: an episode is unplayed (the dot, counted on its show's row) only when never played, not marked
/// played and with no place remembered; one with a place is partly played; one counted as played is
/// neither.
@Suite struct PodcastNewMarkTests {
    let dir = TempDir()

    @Test func onlyNeverPlayedEpisodesWithoutAPlaceAreNew() throws {
        let music = dir.file("music").path
        try FileManager.default.createDirectory(atPath: music + "/Podcasts/The Show", withIntermediateDirectories: true)
        for name in ["begun", "counted", "fresh", "finished"] {
            try FileManager.default.copyItem(
                atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/01 CBR Info.mp3").path,
                toPath: music + "/Podcasts/The Show/\(name).mp3")
        }
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let catalog = Catalog(pool)
        func track(_ name: String) throws -> Int64 {
            try #require(try catalog.trackID(path: "Podcasts/The Show/\(name).mp3"))
        }
        let (begun, counted, finished) = (try track("begun"), try track("counted"), try track("finished"))
        try pool.write { db in
            try db.execute(sql: "INSERT INTO play_state (track_id, resume_ms) VALUES (?, 60000)", arguments: [begun])
            try db.execute(sql: "INSERT INTO play_state (track_id, play_count) VALUES (?, 1)", arguments: [counted])
            try db.execute(sql: "INSERT INTO play_state (track_id, played) VALUES (?, 1)", arguments: [finished])
        }
        let store = LibraryStore(pool)
        let show = try #require(try store.rows(of: .podcastShows, in: 0..<10).first)
        #expect(show.unplayed == 1, "fresh alone: \(show)")
        let rows = try store.rows(of: .episodesOfShow(show.id), in: 0..<10)
        func row(_ name: String) throws -> BrowseRow { try #require(rows.first { $0.id == (try track(name)) }) }
        #expect(try row("fresh").unplayed == 1 && !(try row("fresh").partlyPlayed))
        #expect(try row("begun").unplayed == 0 && (try row("begun").partlyPlayed))
        #expect(try row("counted").unplayed == 0 && !(try row("counted").partlyPlayed))
        #expect(try row("finished").unplayed == 0 && !(try row("finished").partlyPlayed))
    }
}
