import ClickWheelCore
import Foundation
import GRDB
import Testing

@testable import Library

/// `save` of a queue that still holds a track whose file was deleted and rescanned away: the soak's
/// clients got `ACK [52@0] {save} library: SQLite error 19: FOREIGN KEY constraint failed`. The gone
/// track is left out; the others are saved.
@Suite struct StoredPlaylistGoneTrackTests {
    @Test func aTrackDeletedSinceItWasQueuedIsLeftOutOfTheSave() throws {
        let dir = TempDir()
        let music = dir.file("music").path
        try copyThreeSongs(to: music)
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let queue = try LibraryStore(pool).trackIDs(of: .songs)
        #expect(queue.count == 3)
        let gone = try #require(try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM tracks WHERE path = 'Band/Record/02 Song.mp3'")
        })
        try FileManager.default.removeItem(atPath: music + "/Band/Record/02 Song.mp3")
        let summary = try index(music, into: pool)
        #expect(summary.removed == 1)

        let playlists = StoredPlaylists(pool)
        try playlists.create("kept", tracks: queue)
        #expect(try playlists.tracks("kept") == queue.filter { $0 != gone })
        try playlists.add(queue, to: "kept")
        #expect(try playlists.tracks("kept") == (queue + queue).filter { $0 != gone })
    }
}
