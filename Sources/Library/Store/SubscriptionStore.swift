import Foundation
public import GRDB

/// Podcast subscriptions, kept in the library database (`subscriptions`, `subscription_episodes`): the
/// feeds the service fetches by itself, what each one lists, and what was downloaded of it.
///
/// The store only records: fetching, parsing and downloading happen elsewhere and hand their results
/// here. A feed keeps its last good episodes through any number of failed fetches (the failure is
/// recorded beside them); an episode keeps its guid across fetches, so a feed that reorders or edits
/// its items neither loses a download nor fetches one twice.
///
/// Thread rules: any thread (GRDB serialises writes).
public struct SubscriptionStore: Sendable {
    let db: any DatabaseWriter

    public init(_ db: any DatabaseWriter) { self.db = db }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// No subscription has that id or address.
        case noSuchSubscription(String)
        /// Not an http or https address.
        case badURL(String)

        public var description: String {
            switch self {
            case .noSuchSubscription(let what): "no such subscription: \(what)"
            case .badURL(let url): "not an http or https address: \(url)"
            }
        }
    }

    /// A subscription as the socket and the web remote list it.
    public struct Subscription: Hashable, Sendable {
        public var id: Int64
        public var url: String
        public var title: String?
        public var author: String?
        public var description: String?
        public var imageURL: String?
        /// Newest episodes kept downloaded; nil: the configuration's default.
        public var keep: Int?
        public var etag: String?
        public var lastModified: String?
        public var addedAt: Int64
        public var checkedAt: Int64?
        public var updatedAt: Int64?
        /// Why the last attempt failed; nil when it succeeded (or none was made yet).
        public var error: String?
        /// Attempts failed in a row.
        public var failures: Int
        public var fromConfig: Bool
        /// Episodes the feed lists.
        public var episodes: Int
        /// Episodes downloaded and not yet played (the iPod's "New").
        public var new: Int
    }

    /// An episode a feed lists: what the feed says of it (`fetched`, its fields read through as the
    /// episode's own: `e.title`, `e.enclosureURL`), and what the service made of it.
    @dynamicMemberLookup
    public struct Episode: Hashable, Sendable {
        public enum State: String, Sendable {
            /// Listed by the feed, not downloaded.
            case listed
            case downloading
            case downloaded
            /// The last download failed (`error`); tried again at the next fetch.
            case failed
            /// Downloaded, then deleted (played and old, or removed by hand): not downloaded again.
            case deleted
        }

        public var id: Int64
        public var subscriptionID: Int64
        /// The item as the feed last listed it.
        public var fetched: FetchedEpisode
        public var state: State
        /// The file, relative to the music folder, once downloaded.
        public var path: String?
        /// Bytes downloaded so far.
        public var bytes: Int64
        public var error: String?

        public subscript<T>(dynamicMember field: WritableKeyPath<FetchedEpisode, T>) -> T {
            get { fetched[keyPath: field] }
            set { fetched[keyPath: field] = newValue }
        }
    }

    /// A feed as fetched and parsed, in the store's terms.
    public struct FetchedFeed: Hashable, Sendable {
        public var title: String?
        public var author: String?
        public var description: String?
        public var imageURL: String?
        public var episodes: [FetchedEpisode]

        public init(
            title: String?, author: String? = nil, description: String? = nil, imageURL: String? = nil,
            episodes: [FetchedEpisode]
        ) {
            self.title = title
            self.author = author
            self.description = description
            self.imageURL = imageURL
            self.episodes = episodes
        }
    }

    /// One item of a fetched feed.
    public struct FetchedEpisode: Hashable, Sendable {
        public var guid: String
        public var title: String
        public var publishedAt: Int64?
        public var enclosureURL: String?
        public var enclosureType: String?
        public var enclosureLength: Int64?
        public var durationMS: Int64?
        public var description: String?
        public var imageURL: String?

        public init(
            guid: String, title: String, publishedAt: Int64? = nil, enclosureURL: String? = nil,
            enclosureType: String? = nil, enclosureLength: Int64? = nil, durationMS: Int64? = nil,
            description: String? = nil, imageURL: String? = nil
        ) {
            self.guid = guid
            self.title = title
            self.publishedAt = publishedAt
            self.enclosureURL = enclosureURL
            self.enclosureType = enclosureType
            self.enclosureLength = enclosureLength
            self.durationMS = durationMS
            self.description = description
            self.imageURL = imageURL
        }
    }

    // MARK: Subscriptions

    /// Subscribes to `url`; when it is already subscribed, its id and `added` false.
    public func add(_ url: String, fromConfig: Bool = false, now: Int64) throws -> (id: Int64, added: Bool) {
        guard Self.isFeedURL(url) else { throw Failure.badURL(url) }
        return try db.write { db in
            if let id = try Int64.fetchOne(db, sql: "SELECT id FROM subscriptions WHERE url = ?", arguments: [url]) {
                if fromConfig {
                    try db.execute(sql: "UPDATE subscriptions SET from_config = 1 WHERE id = ?", arguments: [id])
                }
                return (id, false)
            }
            try db.execute(
                sql: "INSERT INTO subscriptions (url, added_at, from_config) VALUES (?, ?, ?)",
                arguments: [url, now, fromConfig])
            return (db.lastInsertedRowID, true)
        }
    }

    /// An absolute http or https address with a host.
    public static func isFeedURL(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// Every subscription, in the order they were added.
    public func all() throws -> [Subscription] {
        try db.read { db in try Row.fetchAll(db, sql: Self.listSQL + " ORDER BY s.id").map(Self.subscription) }
    }

    /// The subscription `what` names: its id, or its address.
    public func find(_ what: String) throws -> Subscription? {
        try db.read { db in
            if let id = Int64(what) {
                return try Row.fetchOne(db, sql: Self.listSQL + " WHERE s.id = ?", arguments: [id]).map(Self.subscription)
            }
            return try Row.fetchOne(db, sql: Self.listSQL + " WHERE s.url = ?", arguments: [what]).map(Self.subscription)
        }
    }

    /// Ends subscription `id` and forgets its episodes; downloaded files stay in the music folder (they
    /// are the listener's now, as any file there). Throws `noSuchSubscription`.
    public func delete(id: Int64) throws {
        try db.write { db in
            try db.execute(sql: "DELETE FROM subscriptions WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw Failure.noSuchSubscription(String(id)) }
        }
    }

    /// Sets how many of the newest episodes subscription `id` keeps downloaded (nil: the default).
    public func setKeep(id: Int64, _ keep: Int?) throws {
        try db.write { db in
            try db.execute(sql: "UPDATE subscriptions SET keep = ? WHERE id = ?", arguments: [keep, id])
            if db.changesCount == 0 { throw Failure.noSuchSubscription(String(id)) }
        }
    }

    // MARK: Fetch results

    /// A fetch brought the feed: its details and validators replace the old ones, its episodes are added
    /// or brought up to date by guid (what was downloaded of them stays), the failure count starts
    /// again. `movedTo`: a permanent redirect's new address (kept unless another subscription has it).
    /// Returns the number of episodes that were not listed before.
    @discardableResult
    public func recordFetched(
        id: Int64, _ feed: FetchedFeed, etag: String?, lastModified: String?, movedTo: String? = nil, now: Int64
    ) throws -> Int {
        try db.write { db in
            try db.execute(
                sql: """
                    UPDATE subscriptions SET title = ?, author = ?, description = ?, image_url = ?, etag = ?,
                        last_modified = ?, checked_at = ?, updated_at = ?, error = NULL, failures = 0
                    WHERE id = ?
                    """,
                arguments: [feed.title, feed.author, feed.description, feed.imageURL, etag, lastModified, now, now, id])
            if db.changesCount == 0 { throw Failure.noSuchSubscription(String(id)) }
            if let movedTo, Self.isFeedURL(movedTo),
                try Int64.fetchOne(db, sql: "SELECT id FROM subscriptions WHERE url = ?", arguments: [movedTo]) == nil
            {
                try db.execute(sql: "UPDATE subscriptions SET url = ? WHERE id = ?", arguments: [movedTo, id])
            }
            let known = try Set(
                String.fetchAll(db, sql: "SELECT guid FROM subscription_episodes WHERE subscription_id = ?", arguments: [id]))
            for e in feed.episodes {
                try db.execute(
                    sql: """
                        INSERT INTO subscription_episodes (subscription_id, guid, title, published_at, enclosure_url,
                            enclosure_type, enclosure_length, duration_ms, description, image_url)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (subscription_id, guid) DO UPDATE SET title = excluded.title,
                            published_at = excluded.published_at, enclosure_url = excluded.enclosure_url,
                            enclosure_type = excluded.enclosure_type, enclosure_length = excluded.enclosure_length,
                            duration_ms = excluded.duration_ms, description = excluded.description,
                            image_url = excluded.image_url
                        """,
                    arguments: [
                        id, e.guid, e.title, e.publishedAt, e.enclosureURL, e.enclosureType, e.enclosureLength,
                        e.durationMS, e.description, e.imageURL,
                    ])
            }
            // A feed may list a guid twice: counted once, as stored.
            return Set(feed.episodes.map(\.guid)).subtracting(known).count
        }
    }

    /// The server said the feed did not change (304): only the times move.
    public func recordNotModified(id: Int64, now: Int64) throws {
        try db.write { db in
            try db.execute(
                sql: "UPDATE subscriptions SET checked_at = ?, updated_at = ?, error = NULL, failures = 0 WHERE id = ?",
                arguments: [now, now, id])
        }
    }

    /// The fetch failed: the reason is kept beside the last good episodes, and the failures counted.
    public func recordFailure(id: Int64, _ error: String, now: Int64) throws {
        try db.write { db in
            try db.execute(
                sql: "UPDATE subscriptions SET checked_at = ?, error = ?, failures = failures + 1 WHERE id = ?",
                arguments: [now, error, id])
        }
    }

    /// When subscription `s` is next due: `interval` seconds after its last success, or after a failure
    /// sooner, doubling from `retry` seconds with each failure in a row up to the interval.
    public static func nextAttempt(of s: Subscription, interval: Int64, retry: Int64 = 300) -> Int64 {
        guard let checked = s.checkedAt else { return s.addedAt }
        if s.failures == 0 { return (s.updatedAt ?? checked) + interval }
        let shift = min(s.failures - 1, 20)
        return checked + min(interval, retry << shift)
    }

    // MARK: Episodes

    /// The episodes of subscription `id`, newest first.
    public func episodes(of id: Int64) throws -> [Episode] {
        try db.read { db in
            try Row.fetchAll(
                db, sql: Self.episodeSQL + " WHERE subscription_id = ? ORDER BY published_at DESC, id DESC",
                arguments: [id]
            ).map(Self.episode)
        }
    }

    /// What to download for subscription `id`: of its `keep` newest episodes with audio, those not on disk
    /// yet (listed, failed, or a download a stop interrupted), newest first. An episode downloaded once
    /// and deleted since is not fetched again.
    public func toDownload(id: Int64, keep: Int) throws -> [Episode] {
        try db.read { db in
            try Row.fetchAll(
                db,
                sql: Self.episodeSQL + """
                     WHERE id IN (SELECT id FROM subscription_episodes WHERE subscription_id = ?
                        AND enclosure_url IS NOT NULL ORDER BY published_at DESC, id DESC LIMIT ?)
                    AND state IN ('listed', 'failed', 'downloading') ORDER BY published_at DESC, id DESC
                    """,
                arguments: [id, keep]
            ).map(Self.episode)
        }
    }

    /// A download of episode `id` started or went on: `bytes` so far.
    public func setDownloading(episode id: Int64, bytes: Int64) throws {
        try db.write { db in
            try db.execute(
                sql: "UPDATE subscription_episodes SET state = 'downloading', bytes = ?, error = NULL WHERE id = ?",
                arguments: [bytes, id])
        }
    }

    /// A download of episode `id` into `path` (relative to the music folder) starts: the path is known
    /// before the file arrives, so a scan that finds the file first already has the feed's details for it.
    public func setDownloading(episode id: Int64, bytes: Int64, path: String) throws {
        try db.write { db in
            try db.execute(
                sql: "UPDATE subscription_episodes SET state = 'downloading', bytes = ?, path = ?, error = NULL WHERE id = ?",
                arguments: [bytes, path, id])
        }
    }

    /// Episode `id` is on disk at `path` (relative to the music folder), `bytes` long.
    public func setDownloaded(episode id: Int64, path: String, bytes: Int64) throws {
        try db.write { db in
            try db.execute(
                sql: "UPDATE subscription_episodes SET state = 'downloaded', path = ?, bytes = ?, error = NULL WHERE id = ?",
                arguments: [path, bytes, id])
        }
    }

    /// Episode `id`'s download failed; tried again at the next fetch.
    public func setFailed(episode id: Int64, _ error: String) throws {
        try db.write { db in
            try db.execute(
                sql: "UPDATE subscription_episodes SET state = 'failed', error = ? WHERE id = ?", arguments: [error, id])
        }
    }

    /// Subscription `id`'s episodes that the service downloaded (into `Podcasts/`), that were played to
    /// their end or marked played (`play_state.played`) and last played before `before` (Unix seconds;
    /// an episode marked played without ever playing counts from its publication): those the
    /// `delete_played_after_days` setting deletes. A file the listener copied in is never among them:
    /// only episodes the store recorded as downloaded are.
    public func playedDownloads(of id: Int64, playedBefore before: Int64) throws -> [Episode] {
        try db.read { db in
            try Row.fetchAll(
                db,
                sql: Self.episodeSQL + """
                     WHERE subscription_id = ? AND state = 'downloaded' AND path LIKE 'Podcasts/%' AND path IN
                        (SELECT t.path FROM tracks t JOIN play_state p ON p.track_id = t.id
                         JOIN subscription_episodes se ON se.path = t.path AND se.subscription_id = ?
                         WHERE p.played = 1 AND coalesce(p.last_played, se.published_at, 0) < ?)
                    """,
                arguments: [id, id, before]
            ).map(Self.episode)
        }
    }

    /// The library's show (`podcast_shows.id`) that subscription `id`'s downloaded episodes were indexed
    /// under, nil before one of them is: the menus put its downloads under that show.
    public func libraryShow(of id: Int64) throws -> Int64? {
        try db.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT pe.show_id FROM subscription_episodes e JOIN tracks t ON t.path = e.path
                    JOIN podcast_episodes pe ON pe.track_id = t.id
                    WHERE e.subscription_id = ? AND e.state = 'downloaded' ORDER BY e.published_at DESC LIMIT 1
                    """,
                arguments: [id])
        }
    }

    /// Episode `id`'s file was deleted: it stays listed, and is not downloaded again.
    public func setDeleted(episode id: Int64) throws {
        try db.write { db in
            try db.execute(sql: "UPDATE subscription_episodes SET state = 'deleted' WHERE id = ?", arguments: [id])
        }
    }

    /// The episode downloaded to `path` and its subscription: the indexer fills in what the file's own
    /// tags lack (show, title, date, description) from them.
    public func episode(atPath path: String) throws -> (episode: Episode, subscription: Subscription)? {
        try db.read { db in
            guard let row = try Row.fetchOne(db, sql: Self.episodeSQL + " WHERE path = ?", arguments: [path]) else {
                return nil
            }
            let e = Self.episode(row)
            guard
                let s = try Row.fetchOne(db, sql: Self.listSQL + " WHERE s.id = ?", arguments: [e.subscriptionID])
                    .map(Self.subscription)
            else { return nil }
            return (e, s)
        }
    }

    /// What the subscriptions say of every episode file they downloaded or are downloading, by path
    /// (relative to the music folder): the scanner's fallback for tags a file lacks.
    static func feedEpisodesByPath(_ db: Database) throws -> [String: Podcasts.FeedEpisode] {
        var byPath: [String: Podcasts.FeedEpisode] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT e.path, e.title, s.title, s.author, e.published_at, e.description, s.url
                FROM subscription_episodes e JOIN subscriptions s ON s.id = e.subscription_id
                WHERE e.path IS NOT NULL
                """)
        while let r = try rows.next() {
            let published: Int64? = r[4]
            byPath[r[0]] = Podcasts.FeedEpisode(
                title: r[1], show: r[2], author: r[3], date: published.map(Self.day), description: r[5], feedURL: r[6])
        }
        return byPath
    }

    /// Unix seconds as `YYYY-MM-DD` in UTC.
    static func day(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    // MARK: Rows

    static let listSQL = """
        SELECT s.id, s.url, s.title, s.author, s.description, s.image_url, s.keep, s.etag, s.last_modified,
            s.added_at, s.checked_at, s.updated_at, s.error, s.failures, s.from_config,
            (SELECT count(*) FROM subscription_episodes e WHERE e.subscription_id = s.id),
            (SELECT count(*) FROM subscription_episodes e JOIN tracks t ON t.path = e.path
                LEFT JOIN play_state p ON p.track_id = t.id
                WHERE e.subscription_id = s.id AND e.state = 'downloaded'
                AND ifnull(p.play_count, 0) = 0 AND ifnull(p.played, 0) = 0 AND ifnull(p.resume_ms, 0) = 0)
        FROM subscriptions s
        """

    static func subscription(_ r: Row) -> Subscription {
        Subscription(
            id: r[0], url: r[1], title: r[2], author: r[3], description: r[4], imageURL: r[5], keep: r[6], etag: r[7],
            lastModified: r[8], addedAt: r[9], checkedAt: r[10], updatedAt: r[11], error: r[12], failures: r[13],
            fromConfig: r[14], episodes: r[15], new: r[16])
    }

    static let episodeSQL = """
        SELECT id, subscription_id, guid, title, published_at, enclosure_url, enclosure_type, enclosure_length,
            duration_ms, description, image_url, state, path, bytes, error FROM subscription_episodes
        """

    static func episode(_ r: Row) -> Episode {
        Episode(
            id: r[0], subscriptionID: r[1],
            fetched: FetchedEpisode(
                guid: r[2], title: r[3], publishedAt: r[4], enclosureURL: r[5], enclosureType: r[6],
                enclosureLength: r[7], durationMS: r[8], description: r[9], imageURL: r[10]),
            state: Episode.State(rawValue: r[11]) ?? .listed, path: r[12], bytes: r[13], error: r[14])
    }
}
