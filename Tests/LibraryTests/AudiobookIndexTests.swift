import ClickWheelCore
import ClickWheelTestKit
import Foundation
import GRDB
@testable import Library
import Testing

/// Audiobooks and chapters from real files: speech by espeak-ng, encoded by lame, chapters (CHAP/CTOC)
/// written by mutagen (`SpokenWordFixture`), indexed by the real scanner into a real SQLite file.
@Suite struct AudiobookIndexTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    func scan() throws -> (DatabasePool, LibraryStore, ScanSummary) {
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        let summary = try index(music, into: pool)
        return (pool, LibraryStore(pool), summary)
    }

    func id(_ pool: DatabasePool, _ path: String) throws -> TrackID {
        try pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM tracks WHERE path = ?", arguments: [path])! }
    }

    @Test func chaptersOfARealFileAreIndexedAndTheBookIsOutOfSongs() throws {
        let made = try SpokenWordFixture.make(
            at: dir.file("music/Audiobooks/Wheel Book/01 Part One.mp3"), title: "Part One", album: "Wheel Book")
        try SpokenWordFixture.make(
            at: dir.file("music/Audiobooks/Wheel Book/02 Part Two.mp3"), title: "Part Two", album: "Wheel Book",
            track: 2, chapters: false)
        try SpokenWordFixture.make(
            at: dir.file("music/Pop/Song.mp3"), title: "A Song", album: "Pop Album", genre: "Pop", chapters: false)
        let (pool, store, summary) = try scan()
        #expect(summary.added == 3)
        let one = try id(pool, "Audiobooks/Wheel Book/01 Part One.mp3")
        let two = try id(pool, "Audiobooks/Wheel Book/02 Part Two.mp3")
        #expect(made.chapters.map(\.title) == ["Opening", "The Wheel", "Closing"])
        #expect(try store.chapters(of: one) == made.chapters)
        #expect(try store.chapters(of: two).isEmpty)
        let info = try #require(try store.track(one))
        #expect(info.isAudiobook && info.isSpokenWord && !info.isPodcast)
        #expect(abs(info.durationMS - made.durationMS) <= 1)
        // Songs (and so Shuffle Songs) hold the song only; Audiobooks the book, its parts in order.
        #expect(try store.trackIDs(of: .songs) == [try id(pool, "Pop/Song.mp3")])
        let books = try store.rows(of: .audiobooks, in: 0..<10)
        #expect(books.map(\.title) == ["Wheel Book"])
        #expect(books.first?.progress == 0)
        let book = try #require(books.first?.id)
        #expect(try store.rows(of: .partsOfBook(book), in: 0..<10).map(\.title) == ["Part One", "Part Two"])
        #expect(try store.trackIDs(of: .partsOfBook(book)) == [one, two])
        #expect(try store.rows(of: .partsOfBook(book), in: 0..<10).allSatisfy { $0.kind == .episode && $0.unplayed == 1 })
    }

    @Test func booksAreFoundByGenreOrTopFolderAndALoneFileIsItsOwnBook() throws {
        try SpokenWordFixture.make(at: dir.file("music/Audiobooks/Lone Story.mp3"), title: "Lone Story", album: "",
            genre: "Speech", chapters: false)
        try SpokenWordFixture.make(at: dir.file("music/Books/Horbuch.mp3"), title: "Kapitel", album: "Das Buch",
            genre: "Hörbuch", chapters: false)
        try SpokenWordFixture.make(at: dir.file("music/Books/Numbered.mp3"), title: "Numbered", album: "Genre 183",
            genre: "(183)", chapters: false)
        try SpokenWordFixture.make(at: dir.file("music/Music/Audiobooks/Not Top.mp3"), title: "Not Top", album: "Tunes",
            genre: "Pop", chapters: false)
        try SpokenWordFixture.make(at: dir.file("music/Podcasts/Show/Ep.mp3"), title: "Ep", album: "Show",
            genre: "Audiobook", chapters: false)
        let (pool, store, _) = try scan()
        let books = try store.rows(of: .audiobooks, in: 0..<10).map(\.title)
        #expect(books == ["Das Buch", "Genre 183", "Lone Story"])
        let flags = try pool.read {
            try Dictionary(uniqueKeysWithValues: Row.fetchAll($0, sql: "SELECT path, is_audiobook, is_podcast FROM tracks")
                .map { ($0[0] as String, [$0[1] as Int, $0[2] as Int]) })
        }
        #expect(flags["Music/Audiobooks/Not Top.mp3"] == [0, 0])
        #expect(flags["Podcasts/Show/Ep.mp3"] == [0, 1])  // a podcast stays a podcast
        #expect(try store.statistics().songs == 1)
    }

    @Test func chaptersFollowRescansAndGoWithTheirTrack() throws {
        let url = dir.file("music/Audiobooks/Book/Part.mp3")
        try SpokenWordFixture.make(at: url, title: "Part", album: "Book")
        let (pool, store, _) = try scan()
        let part = try id(pool, "Audiobooks/Book/Part.mp3")
        #expect(try store.chapters(of: part).count == 3)
        // Unchanged: not reread, chapters kept.
        let again = try index(music, into: pool)
        #expect(again.unchanged == 1 && again.updated == 0)
        #expect(try store.chapters(of: part).count == 3)
        // Retagged without chapters (a new mtime): reread, chapters gone, same id.
        try SpokenWordFixture.make(at: url, title: "Part", album: "Book", chapters: false)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: url.path)
        _ = try index(music, into: pool)
        #expect(try id(pool, "Audiobooks/Book/Part.mp3") == part)
        #expect(try store.chapters(of: part).isEmpty)
        // With chapters again, then deleted: the rows go with the track.
        try SpokenWordFixture.make(at: url, title: "Part", album: "Book")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: url.path)
        _ = try index(music, into: pool)
        #expect(try store.chapters(of: part).count == 3)
        try FileManager.default.removeItem(at: url)
        _ = try index(music, into: pool)
        #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chapters") } == 0)
        #expect(try store.count(of: .audiobooks) == 0)
    }

    @Test func aBookShowsHowFarItWasListenedTo() throws {
        try SpokenWordFixture.make(at: dir.file("music/Audiobooks/B/1.mp3"), title: "One", album: "B", chapters: false)
        try SpokenWordFixture.make(at: dir.file("music/Audiobooks/B/2.mp3"), title: "Two", album: "B", track: 2,
            chapters: false)
        let (pool, store, _) = try scan()
        let one = try id(pool, "Audiobooks/B/1.mp3"), two = try id(pool, "Audiobooks/B/2.mp3")
        let lengths = try [one, two].map { try #require(try store.track($0)).durationMS }
        try pool.write { db in
            try db.execute(sql: "INSERT INTO play_state (track_id, played) VALUES (?, 1)", arguments: [one])
            try db.execute(sql: "INSERT INTO play_state (track_id, resume_ms) VALUES (?, ?)", arguments: [two, lengths[1] / 2])
        }
        let expected = 100 * (lengths[0] + lengths[1] / 2) / (lengths[0] + lengths[1])
        #expect(try store.rows(of: .audiobooks, in: 0..<1).first?.progress == expected)
        let parts = try store.rows(of: .partsOfBook(try store.rows(of: .audiobooks, in: 0..<1)[0].id), in: 0..<2)
        #expect(parts.map(\.unplayed) == [0, 1])
        #expect(parts.map(\.partlyPlayed) == [false, true])
    }

    @Test func hostileChapterFramesAreBoundedAndTheFileStillIndexes() throws {
        // A real MP3 (its own tag dropped) behind an ID3v2.3 tag of broken and lying CHAP/CTOC frames.
        let mp3 = try Data(contentsOf: HostileFilesTests.sample)
        let audio = mp3.subdata(in: ID3Bytes.tagLength(mp3)..<mp3.count)
        func be(_ v: UInt32) -> Data { Data([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        func chap(_ id: String, _ start: UInt32, _ end: UInt32, _ sub: Data) -> Data {
            ID3Bytes.frame("CHAP", Data(id.utf8) + Data([0]) + be(start) + be(end) + be(.max) + be(.max) + sub)
        }
        var frames = ID3Bytes.textFrame("TIT2", "Hostile Chapters") + ID3Bytes.textFrame("TCON", "Audiobook")
        frames += ID3Bytes.frame("CHAP", Data("noterminator".utf8))
        frames += ID3Bytes.frame("CHAP", Data("cut".utf8) + Data([0, 0, 0, 0, 1, 0, 0]))
        // A TIT2 subframe claiming 2 GB: the title is what the frame holds.
        frames += chap("c1", 0, .max, Data("TIT2".utf8) + be(0x7FFF_FFFF) + Data([0, 0, 3]) + Data("Lying".utf8))
        frames += chap("c1", 0, 10, ID3Bytes.textFrame("TIT2", "Duplicate start"))
        // Ends before it starts, and its subframe is not a frame: untitled.
        frames += chap("c2", 200, 100, Data([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1, 0, 0, 0x41]))
        frames += chap("c3", 99_999_999, 99_999_999 &+ 5, ID3Bytes.textFrame("TIT2", "Past the end"))
        frames += chap("c4", 300, 400, ID3Bytes.textFrame("TIT2", "Not in the table"))
        // A table claiming 255 children, holding two and a cut third.
        frames += ID3Bytes.frame("CTOC", Data("toc".utf8) + Data([0, 3, 255]) + Data("c1\u{0}c2\u{0}c3\u{0}c9".utf8))
        let tag = ID3Bytes.header(size: frames.count) + frames
        try FileManager.default.createDirectory(atPath: music + "/Books", withIntermediateDirectories: true)
        try (tag + audio).write(to: URL(fileURLWithPath: music + "/Books/hostile.mp3"))
        let (pool, store, summary) = try scan()
        #expect(summary.added == 1)
        let track = try id(pool, "Books/hostile.mp3")
        let duration = try #require(try store.track(track)).durationMS
        #expect(try store.chapters(of: track) == [
            Chapter(startMS: 0, endMS: 200, title: "Lying"),
            Chapter(startMS: 200, endMS: duration, title: "Chapter 2"),
        ])
    }

    @Test func chapterParsingNeverReadsPastItsBytes() {
        // Every short payload of a few shapes: parsing returns or gives up, and agrees with the layout rule.
        var random = SplitMix64(seed: 19)
        for _ in 0..<5000 {
            let count = Int(random.next() % 48)
            var p = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() % 4 == 0 ? 0 : random.next()) }
            if count > 8, random.next() % 2 == 0 { p.replaceSubrange(0..<4, with: Array("TIT2".utf8)) }
            let raw = ChapterFrames.chapter(p, version: Int(3 + random.next() % 2))
            let nul = p.firstIndex(of: 0)
            #expect((raw != nil) == (nul.map { p.count - $0 - 1 >= 16 } ?? false))
            if let toc = ChapterFrames.tableOfContents(p) { #expect(toc.children.count <= 255) }
        }
    }

    @Test func aLibraryIndexedBeforeTheseColumnsFindsItsBooksOnTheNextScan() throws {
        let made = try SpokenWordFixture.make(at: dir.file("music/Audiobooks/Book/Part.mp3"), title: "Part", album: "Book")
        try SpokenWordFixture.make(at: dir.file("music/Pop/Song.mp3"), title: "Song", album: "Pop", genre: "Pop",
            chapters: false)
        let (pool, store, _) = try scan()
        let part = try id(pool, "Audiobooks/Book/Part.mp3")
        // As a library of schema 5 looks after migrating: nothing known of books or chapters yet.
        let upgrade = try #require(LibraryDatabase.migrations.first { $0.name.hasPrefix("0006") }?.sql
            .components(separatedBy: "-- Libraries indexed before this schema").last)
        try pool.write { db in
            try db.execute(sql: "UPDATE tracks SET is_audiobook = 0; UPDATE albums SET book_ord = NULL; DELETE FROM chapters")
            try db.execute(sql: "UPDATE tracks SET ord = (SELECT count(*) FROM tracks) WHERE id = ?", arguments: [part])
            try db.execute(sql: "--" + upgrade)
        }
        #expect(try store.count(of: .audiobooks) == 0)
        let summary = try index(music, into: pool)
        #expect(summary.updated == 1 && summary.unchanged == 1, "only the book's file is reread")
        #expect(try id(pool, "Audiobooks/Book/Part.mp3") == part)
        #expect(try store.chapters(of: part) == made.chapters)
        #expect(try store.rows(of: .audiobooks, in: 0..<5).map(\.title) == ["Book"])
        #expect(try store.trackIDs(of: .songs).count == 1)
    }
}
