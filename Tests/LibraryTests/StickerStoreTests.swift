import ClickWheelCore
import Foundation
import GRDB
@testable import Library
import Testing

/// MPD stickers kept in the library database: stored names beside the device's own (`play_state`),
/// MPD 0.23's rules (empty values, text comparison), and surviving rescans and moves.
@Suite struct StickerStoreTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    init() throws { try copyThreeSongs(to: music) }

    func indexed() throws -> (DatabasePool, StickerStore, (String) throws -> TrackID) {
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        try index(music, into: pool)
        let id = { (path: String) throws -> TrackID in try #require(try Catalog(pool).trackID(path: path)) }
        return (pool, StickerStore(pool), id)
    }

    @Test func storedStickersFollowMPDsRules() throws {
        let (_, stickers, id) = try indexed()
        let one = try id("Band/Record/01 Song.mp3"), two = try id("Band/Record/02 Song.mp3")
        #expect(throws: StickerStore.Failure.noSuchSticker) { try stickers.get(one, "mood") }
        try stickers.set(one, "mood", "calm")
        try stickers.set(one, "a=b", "1")
        try stickers.set(two, "mood", "loud")
        #expect(try stickers.get(one, "mood") == "calm")
        #expect(try stickers.list(one).map { "\($0.name)=\($0.value)" } == ["a=b=1", "mood=calm"])
        #expect(try stickers.find(under: "", "mood").map(\.path) == ["Band/Record/01 Song.mp3", "Band/Record/02 Song.mp3"])
        #expect(try stickers.find(under: "Band", "mood", .equal, "loud").map(\.path) == ["Band/Record/02 Song.mp3"])
        #expect(try stickers.find(under: "Ban", "mood").isEmpty, "a folder is a whole path segment")
        #expect(try stickers.find(under: "Band/Record/01 Song.mp3", "mood").isEmpty)
        // Empty values read as missing but are listed (MPD 0.23).
        try stickers.set(two, "mood", "")
        #expect(throws: StickerStore.Failure.noSuchSticker) { try stickers.get(two, "mood") }
        #expect(try stickers.list(two).map(\.name) == ["mood"])
        try stickers.delete(one, "mood")
        #expect(throws: StickerStore.Failure.noSuchSticker) { try stickers.delete(one, "mood") }
        try stickers.delete(one, nil)
        #expect(try stickers.list(one).isEmpty)
        #expect(throws: StickerStore.Failure.noSuchSticker) { try stickers.delete(one, nil) }
    }

    @Test func theDevicesOwnDataIsReadUnderClientsNames() throws {
        let (pool, stickers, id) = try indexed()
        let one = try id("Band/Record/01 Song.mp3"), two = try id("Band/Record/02 Song.mp3")
        let plays = PlayStateStore(pool)
        try plays.played(one, at: 1_700_000_000)
        try plays.played(one, at: 1_700_000_100)
        try plays.skipped(one, at: 1_700_000_200)
        try plays.rate(one, rating: 8)
        #expect(try stickers.list(one).map { "\($0.name)=\($0.value)" } == [
            "lastPlayed=1700000100", "lastSkipped=1700000200", "playCount=2", "rating=8", "skipCount=1",
        ])
        #expect(try stickers.get(one, "playCount") == "2")
        // A client's rating is the device's rating; half stars kept, other values rounded.
        #expect(try stickers.set(two, "rating", "7"))
        #expect(try LibraryStore(pool).track(two)?.rating == 7)
        try stickers.set(two, "rating", "9.6")
        #expect(try stickers.get(two, "rating") == "10")
        #expect(throws: StickerStore.Failure.badRating) { try stickers.set(two, "rating", "11") }
        #expect(throws: StickerStore.Failure.badRating) { try stickers.set(two, "rating", "five") }
        #expect(throws: StickerStore.Failure.badRating) { try stickers.set(two, "rating", "nan") }
        #expect(throws: StickerStore.Failure.readOnly("playCount")) { try stickers.set(two, "playCount", "99") }
        #expect(throws: StickerStore.Failure.readOnly("lastPlayed")) { try stickers.delete(one, "lastPlayed") }
        // Text comparison, as MPD 0.23: "10" sorts before "8".
        #expect(try stickers.find(under: "", "rating", .greater, "7").map(\.value) == ["8"])
        #expect(try stickers.find(under: "", "rating", .less, "9").map(\.value) == ["8", "10"])
        // Deleting a song's stickers clears its rating, never its counts.
        try stickers.delete(one, nil)
        #expect(try stickers.list(one).map(\.name) == ["lastPlayed", "lastSkipped", "playCount", "skipCount"])
        try stickers.delete(two, "rating")
        #expect(try LibraryStore(pool).track(two)?.rating == 0)
        #expect(throws: StickerStore.Failure.noSuchSticker) { try stickers.delete(two, "rating") }
    }

    @Test func stickersSurviveRescansAndMoves() throws {
        let (pool, stickers, id) = try indexed()
        let one = try id("Band/Record/01 Song.mp3")
        try stickers.set(one, "mood", "calm")
        try stickers.set(one, "rating", "6")
        let fm = FileManager.default
        try fm.createDirectory(atPath: music + "/Elsewhere", withIntermediateDirectories: true)
        try fm.moveItem(atPath: music + "/Band/Record/01 Song.mp3", toPath: music + "/Elsewhere/Moved.mp3")
        let summary = try index(music, into: pool)
        #expect(summary.moved == 1)
        let moved = try id("Elsewhere/Moved.mp3")
        #expect(moved == one)
        #expect(try stickers.list(moved).map { "\($0.name)=\($0.value)" } == ["mood=calm", "rating=6"])
        #expect(try stickers.find(under: "Elsewhere", "mood").map(\.path) == ["Elsewhere/Moved.mp3"])
        // A deleted file takes its stickers with it.
        try fm.removeItem(atPath: music + "/Elsewhere/Moved.mp3")
        _ = try index(music, into: pool)
        #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM stickers") } == 0)
    }
}
