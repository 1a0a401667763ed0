import Foundation
import GRDB
@testable import Library
import Testing

/// Podcast subscriptions in a real library database file: subscribing, fetch results merged by guid,
/// failures kept beside the last good episodes, what to download, the "New" count from the indexed
/// files' play state, and the retry's backoff.
@Suite struct SubscriptionStoreTests {
    let dir = TempDir()
    var music: String { dir.file("music").path }

    func open() throws -> (DatabasePool, SubscriptionStore) {
        let pool = try LibraryDatabase.open(at: dir.file("lib.sqlite").path)
        return (pool, SubscriptionStore(pool))
    }

    static func feed(_ guids: [String], title: String = "The Show") -> SubscriptionStore.FetchedFeed {
        SubscriptionStore.FetchedFeed(
            title: title, author: "Host",
            episodes: guids.enumerated().map { i, guid in
                SubscriptionStore.FetchedEpisode(
                    guid: guid, title: "Episode \(guid)", publishedAt: Int64(1_000 + i * 100),
                    enclosureURL: guid.hasPrefix("text") ? nil : "http://127.0.0.1/\(guid).mp3",
                    enclosureType: "audio/mpeg", enclosureLength: 1_000)
            })
    }

    @Test func subscribingListingAndDeleting() throws {
        let (_, store) = try open()
        let first = try store.add("https://example.org/feed.xml", now: 10)
        #expect(first.added)
        #expect(try store.add("https://example.org/feed.xml", now: 11) == (first.id, false), "a second add is the same")
        #expect(throws: SubscriptionStore.Failure.badURL("ftp://x/y")) { try store.add("ftp://x/y", now: 12) }
        #expect(throws: SubscriptionStore.Failure.badURL("feed.xml")) { try store.add("feed.xml", now: 12) }
        let second = try store.add("http://127.0.0.1:8000/b.rss", fromConfig: true, now: 13)
        #expect(try store.all().map(\.url) == ["https://example.org/feed.xml", "http://127.0.0.1:8000/b.rss"])
        #expect(try store.find(String(second.id))?.fromConfig == true)
        #expect(try store.find("https://example.org/feed.xml")?.id == first.id)
        #expect(try store.find("99") == nil)
        try store.delete(id: first.id)
        #expect(throws: SubscriptionStore.Failure.noSuchSubscription(String(first.id))) { try store.delete(id: first.id) }
        #expect(try store.all().map(\.id) == [second.id])
    }

    @Test func aFetchMergesEpisodesByGuidAndAFailureKeepsThem() throws {
        let (_, store) = try open()
        let id = try store.add("https://example.org/feed.xml", now: 10).id
        #expect(try store.recordFetched(id: id, Self.feed(["a", "b", "text"]), etag: "\"1\"", lastModified: nil, now: 20) == 3)
        var s = try #require(try store.find(String(id)))
        #expect(s.title == "The Show" && s.etag == "\"1\"" && s.episodes == 3 && s.updatedAt == 20 && s.error == nil)

        // A download done, then a fetch that edits "a", drops "b" from the feed and adds "c".
        let a = try #require(try store.episodes(of: id).first { $0.guid == "a" })
        try store.setDownloaded(episode: a.id, path: "Podcasts/The Show/a.mp3", bytes: 1_000)
        var edited = Self.feed(["a", "c"], title: "The Show (new name)")
        edited.episodes[0].title = "Episode a, retitled"
        #expect(try store.recordFetched(id: id, edited, etag: "\"2\"", lastModified: "Mon", movedTo: "https://new.example.org/f", now: 30) == 1)
        let episodes = try store.episodes(of: id)
        #expect(Set(episodes.map(\.guid)) == ["a", "b", "c", "text"], "an episode a feed stops listing stays")
        let kept = try #require(episodes.first { $0.guid == "a" })
        #expect(kept.state == .downloaded && kept.path == "Podcasts/The Show/a.mp3" && kept.title == "Episode a, retitled")
        s = try #require(try store.find(String(id)))
        #expect(s.url == "https://new.example.org/f" && s.title == "The Show (new name)" && s.lastModified == "Mon")

        // Failures: counted, the reason kept, the episodes untouched; a 304 clears them.
        try store.recordFailure(id: id, "not a feed (the answer is HTML)", now: 40)
        try store.recordFailure(id: id, "timed out", now: 50)
        s = try #require(try store.find(String(id)))
        #expect(s.error == "timed out" && s.failures == 2 && s.episodes == 4 && s.updatedAt == 30 && s.checkedAt == 50)
        try store.recordNotModified(id: id, now: 60)
        s = try #require(try store.find(String(id)))
        #expect(s.error == nil && s.failures == 0 && s.updatedAt == 60)
    }

    @Test func theNewestWithAudioAreDownloadedOnce() throws {
        let (_, store) = try open()
        let id = try store.add("https://example.org/feed.xml", now: 10).id
        // Published in order: a (oldest) … e (newest); "text" has no audio.
        try store.recordFetched(id: id, Self.feed(["a", "b", "c", "d", "text", "e"]), etag: nil, lastModified: nil, now: 20)
        #expect(try store.toDownload(id: id, keep: 3).map(\.guid) == ["e", "d", "c"])
        let e = try #require(try store.toDownload(id: id, keep: 3).first)
        try store.setDownloading(episode: e.id, bytes: 500)
        #expect(try store.toDownload(id: id, keep: 3).map(\.guid) == ["e", "d", "c"], "an interrupted download goes on")
        try store.setDownloaded(episode: e.id, path: "Podcasts/The Show/e.mp3", bytes: 1_000)
        let d = try #require(try store.toDownload(id: id, keep: 3).first)
        try store.setFailed(episode: d.id, "404 Not Found")
        #expect(try store.toDownload(id: id, keep: 3).map(\.guid) == ["d", "c"], "a failed one is tried again")
        try store.setDeleted(episode: e.id)
        #expect(try store.toDownload(id: id, keep: 3).map(\.guid) == ["d", "c"], "a deleted one is not fetched again")
        #expect(try store.toDownload(id: id, keep: 1).isEmpty)
    }

    @Test func newCountsDownloadedEpisodesNotYetPlayed() throws {
        try FileManager.default.createDirectory(atPath: music + "/Podcasts/The Show", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestPaths.fixtureMusic.appendingPathComponent("Durations/01 CBR Info.mp3").path,
            toPath: music + "/Podcasts/The Show/a.mp3")
        let (pool, store) = try open()
        try index(music, into: pool)
        let id = try store.add("https://example.org/feed.xml", now: 10).id
        try store.recordFetched(id: id, Self.feed(["a", "b"]), etag: nil, lastModified: nil, now: 20)
        #expect(try store.find(String(id))?.new == 0)
        let a = try #require(try store.episodes(of: id).first { $0.guid == "a" })
        try store.setDownloaded(episode: a.id, path: "Podcasts/The Show/a.mp3", bytes: 1_000)
        #expect(try store.find(String(id))?.new == 1)
        #expect(try store.episode(atPath: "Podcasts/The Show/a.mp3")?.subscription.id == id)
        let track = try #require(try Catalog(pool).trackID(path: "Podcasts/The Show/a.mp3"))
        try pool.write { db in
            try db.execute(sql: "INSERT INTO play_state (track_id, play_count) VALUES (?, 1)", arguments: [track])
        }
        #expect(try store.find(String(id))?.new == 0, "played: no longer new")
    }

    @Test func subscriptionsSurviveReopeningTheDatabase() throws {
        do {
            let (_, store) = try open()
            let id = try store.add("https://example.org/feed.xml", now: 10).id
            try store.recordFetched(id: id, Self.feed(["a"]), etag: "\"1\"", lastModified: nil, now: 20)
        }
        let (_, store) = try open()
        let s = try #require(try store.all().first)
        #expect(s.etag == "\"1\"" && s.episodes == 1)
    }

    @Test func retriesBackOffUpToTheInterval() {
        var s = SubscriptionStore.Subscription(
            id: 1, url: "https://x/f", addedAt: 100, failures: 0, fromConfig: false, episodes: 0, new: 0)
        #expect(SubscriptionStore.nextAttempt(of: s, interval: 3_600) == 100, "never fetched: due at once")
        s.checkedAt = 1_000
        s.updatedAt = 1_000
        #expect(SubscriptionStore.nextAttempt(of: s, interval: 3_600) == 4_600)
        s.checkedAt = 2_000
        s.failures = 1
        #expect(SubscriptionStore.nextAttempt(of: s, interval: 3_600) == 2_300)
        s.failures = 3
        #expect(SubscriptionStore.nextAttempt(of: s, interval: 3_600) == 3_200)
        s.failures = 30
        #expect(SubscriptionStore.nextAttempt(of: s, interval: 3_600) == 5_600, "never longer than the interval")
    }
}
