import ClickWheelConfig
import ClickWheelCore
import ControlServer
import Foundation
import Library
import Logging
import MPDProtocol
import NamedThreads
import NIOCore
import Podcasts
import ServiceLifecycle
import Synchronization

/// Podcast subscriptions, kept up to date by themselves (issue 34): every feed fetched when due
/// (`SubscriptionStore.nextAttempt`: the refresh interval after a success, a growing retry after a
/// failure, plus a fixed jitter per feed so feeds added together spread out) and on demand (the socket's
/// `podcastadd` and `podcastupdate`); the newest `keep` episodes with audio downloaded into
/// `<music>/Podcasts/<Show>/`, two at a time; then a library rescan, so they show under Podcasts.
///
/// A feed that fails keeps its episodes and records why (`podcastlist`'s `error:`), and is retried with
/// backoff; nothing a feed or a server does stops the service. One log line per feed state change (fetched
/// → failing → fetched again), not one per attempt.
///
/// Thread rules: `run()` is the group's task; the `PodcastControl` calls come from the control socket's
/// command queues and only touch the database and the wake-ups. Database work from async code runs on
/// named threads (`NamedThread.run`), parsing too; the network is AsyncHTTPClient on the service's one
/// event loop group.
final class PodcastService: Service, PodcastControl, Sendable {
    let store: SubscriptionStore
    let settings: ServiceConfig.Podcasts
    let music: String
    let logger: Logger
    let http: PodcastHTTP
    let scheduler = DownloadScheduler(limit: 2)
    /// Feeds fetched and parsed at once, at most: a refresh of every subscription neither opens a connection
    /// nor holds a parsed feed in memory per feed (a Pi Zero has 512 MB); the episode downloads that follow
    /// wait for `scheduler`'s two slots, not for these.
    let feedSlots = DownloadScheduler(limit: 4)
    /// Starts a library scan (the episodes downloaded appear under Podcasts).
    let rescan: @Sendable () -> Void
    /// Tells the socket's `idle podcast` clients.
    let changed: @Sendable () -> Void
    /// Hands the downloads under way to the device's menus (`Event.podcastDownloads`): posted, never
    /// waited for, at most `progressEvery` apart while bytes arrive, at once when one starts or ends.
    let downloads: @Sendable ([PodcastDownload]) -> Void
    static let progressEvery: Duration = .milliseconds(250)
    /// How often the due feeds are looked for, at most (a wake-up comes sooner for `podcastupdate`).
    static let tick: Duration = .seconds(30)

    /// Feeds asked for now (`podcastupdate`, `podcastadd`), taken by the loop.
    private struct Asked {
        var all = false
        var ids: Set<Int64> = []
    }
    private let asked = Mutex(Asked())
    /// Feeds being refreshed now: asked again meanwhile, they wait for the next look.
    private let busy = Mutex<Set<Int64>>([])
    /// Each feed's state as last logged: a line only when it changes.
    private let logged = Mutex<[Int64: String]>([:])
    /// Each failing episode's reason as last logged (a download is retried at every fetch: one line).
    private let loggedEpisodes = Mutex<[Int64: String]>([:])
    /// The downloads under way by episode id, and when they were last handed on.
    private let active = Mutex(Downloads())
    private struct Downloads {
        var byEpisode: [Int64: PodcastDownload] = [:]
        var order: [Int64] = []
        var sentAt: ContinuousClock.Instant?
        /// Progress held back by the throttle is handed on by a flush already waiting.
        var flushWaiting = false

        var list: [PodcastDownload] { order.compactMap { byEpisode[$0] } }
    }
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(
        store: SubscriptionStore, settings: ServiceConfig.Podcasts, music: String, group: any EventLoopGroup,
        logger: Logger, rescan: @escaping @Sendable () -> Void, changed: @escaping @Sendable () -> Void,
        downloads: @escaping @Sendable ([PodcastDownload]) -> Void = { _ in }
    ) {
        self.downloads = downloads
        self.store = store
        self.settings = settings
        self.music = music
        self.logger = logger
        self.rescan = rescan
        self.changed = changed
        http = PodcastHTTP(group: group)
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Lets go of a service that will never run (the start of `ClickWheelService` failed after it was made):
    /// its HTTP client is shut down, as `run()` does at its end. Blocking: from the thread making the service.
    func discard() {
        try? http.syncShutdown()
    }

    // MARK: The service

    func run() async {
        await subscribeConfiguredFeeds()
        await withTaskGroup(of: Void.self) { group in
            // The ticks: a look for due feeds every `tick`, besides the wake-ups the commands send.
            group.addTask { [wake] in
                while !Task.isCancelled {
                    wake.yield()
                    try? await Task.sleep(for: Self.tick)
                }
            }
            for await _ in wakeups.cancelOnGracefulShutdown() {
                for (id, wasAsked) in await due() {
                    guard busy.withLock({ $0.insert(id).inserted }) else {
                        // Asked for while it is being refreshed: once more after this one.
                        if wasAsked { asked.withLock { _ = $0.ids.insert(id) } }
                        continue
                    }
                    // An ask waiting for the next look is served by this refresh, which reads the
                    // subscription and fetches from now on (a feed added while `due()` read the list is
                    // fetched once, not once more).
                    asked.withLock { _ = $0.ids.remove(id) }
                    group.addTask { [self] in
                        await refresh(id, asked: wasAsked)
                        busy.withLock { _ = $0.remove(id) }
                        if asked.withLock({ $0.ids.contains(id) }) { wake.yield() }
                    }
                }
            }
            // Shutdown: fetches and downloads under way stop (a `.part` stays to be resumed next time).
            group.cancelAll()
        }
        try? await http.shutdown()
    }

    /// The feeds of the configuration, subscribed (once; marked as coming from it).
    private func subscribeConfiguredFeeds() async {
        let feeds = settings.feeds
        guard !feeds.isEmpty else { return }
        await NamedThread.run("podcast-db") { [store, logger] in
            let now = Self.now()
            for url in feeds {
                do {
                    if try store.add(url, fromConfig: true, now: now).added { logger.info("podcasts: subscribed to \(url) (configuration)") }
                } catch {
                    logger.error("podcasts: cannot subscribe to \(url): \(error)")
                }
            }
        }
    }

    /// The feeds to fetch now: those asked for (`asked` true), and those whose time came.
    private func due() async -> [(id: Int64, asked: Bool)] {
        let asked = self.asked.withLock { a in
            defer { a = Asked() }
            return a
        }
        let interval = Int64(settings.refreshSeconds)
        return await NamedThread.run("podcast-db") { [store, logger] () -> [(id: Int64, asked: Bool)] in
            let all: [SubscriptionStore.Subscription]
            do {
                all = try store.all()
            } catch {
                logger.error("podcasts: cannot read the subscriptions: \(error)")
                return []
            }
            let now = Self.now()
            return all.compactMap { s -> (id: Int64, asked: Bool)? in
                if asked.all || asked.ids.contains(s.id) { return (id: s.id, asked: true) }
                return Self.isDue(s, interval: interval, now: now) ? (id: s.id, asked: false) : nil
            }
        }
    }

    /// Whether subscription `s`'s time came: its next attempt (the interval after its last check, or its
    /// backoff after a failure) plus a fixed part of up to a tenth of the interval per feed, so that feeds
    /// added together spread out.
    private static func isDue(_ s: SubscriptionStore.Subscription, interval: Int64, now: Int64) -> Bool {
        let jitter = s.checkedAt == nil ? 0 : Int64((UInt64(bitPattern: s.id) &* 0x9E37_79B9_7F4A_7C15) % UInt64(max(1, interval / 10)))
        return SubscriptionStore.nextAttempt(of: s, interval: interval) + jitter <= now
    }

    // MARK: One feed

    /// Fetches subscription `id`, records what came, and downloads what is missing of its newest episodes.
    /// Unless `asked`, only while its time has come: the list `due()` read may be older than a refresh
    /// that ended since (a feed just added is fetched once, not once more by the next look).
    func refresh(_ id: Int64, asked: Bool = true) async {
        guard let s = await db({ try $0.find(String(id)) }) ?? nil else { return }
        guard asked || Self.isDue(s, interval: Int64(settings.refreshSeconds), now: Self.now()) else { return }
        let outcome: FetchOutcome
        do {
            outcome = try await feedSlots.run { [http] in await Self.fetchAndParse(s, http: http) }
        } catch {
            return  // cancelled while waiting for a slot: the service stops
        }
        switch outcome {
        case .cancelled:
            return
        case .failed(let reason):
            await failed(s, reason)
            return
        case .notModified:
            _ = await db { try $0.recordNotModified(id: id, now: Self.now()) }
            state(s, "fetched")
        case .parsed(let feed, let etag, let lastModified, let finalURL, let permanent):
            let fetched = Self.fetchedFeed(feed)
            let moved = permanent && finalURL != s.url ? finalURL : nil
            let added = await db {
                try $0.recordFetched(
                    id: id, fetched, etag: etag, lastModified: lastModified, movedTo: moved, now: Self.now())
            }
            if let moved { logger.notice("podcasts: \(s.url) moved permanently to \(moved)") }
            state(s, "fetched", detail: ": \(feed.items.count) episodes (\(added ?? 0) new)")
            changed()
        }
        await download(id)
        await deletePlayed(id)
    }

    /// What one feed's fetch came to: the feed parsed, unchanged (304), or why not.
    private enum FetchOutcome: Sendable {
        case parsed(Feed, etag: String?, lastModified: String?, finalURL: String, permanent: Bool)
        case notModified
        case failed(String)
        case cancelled
    }

    /// Fetches subscription `s` (conditionally) and parses what came, on a thread of its own.
    private static func fetchAndParse(_ s: SubscriptionStore.Subscription, http: PodcastHTTP) async -> FetchOutcome {
        let result: FeedFetcher.Result
        do {
            result = try await FeedFetcher(http: http).fetch(s.url, etag: s.etag, lastModified: s.lastModified)
        } catch {
            if case .cancelled = error { return .cancelled }
            return .failed("\(error)")
        }
        switch result {
        case .notModified:
            return .notModified
        case .fetched(let data, let etag, let lastModified, let finalURL, let permanent):
            let parsed = await NamedThread.run("podcast-parse") { () -> Result<Feed, FeedError> in
                do throws(FeedError) { return .success(try FeedParser.parse(data)) } catch { return .failure(error) }
            }
            switch parsed {
            case .success(let feed): return .parsed(feed, etag: etag, lastModified: lastModified, finalURL: finalURL, permanent: permanent)
            case .failure(let error): return .failed("\(error)")
            }
        }
    }

    /// With `delete_played_after_days`, deletes subscription `id`'s episodes played to the end (or marked
    /// played) more than that many days ago (only files this service downloaded into `Podcasts/`); they
    /// stay listed as deleted and are not downloaded again; the rescan makes the library forget them.
    private func deletePlayed(_ id: Int64) async {
        let days = settings.deletePlayedAfterDays
        guard days > 0 else { return }
        let before = Self.now() - Int64(days) * 86400
        guard let old = await db({ try $0.playedDownloads(of: id, playedBefore: before) }), !old.isEmpty else { return }
        let music = self.music
        let deleted = await NamedThread.run("podcast-delete") { [store, logger] () -> Int in
            var count = 0
            for e in old {
                guard let path = e.path else { continue }
                do {
                    if FileManager.default.fileExists(atPath: music + "/" + path) {
                        try FileManager.default.removeItem(atPath: music + "/" + path)
                    }
                    try store.setDeleted(episode: e.id)
                    logger.info("podcasts: deleted \(path) (played, older than \(days) days)")
                    count += 1
                } catch {
                    logger.error("podcasts: cannot delete \(path): \(error)")
                }
            }
            return count
        }
        if deleted > 0 {
            rescan()
            changed()
        }
    }

    /// A failed fetch: recorded beside the feed's last good episodes.
    private func failed(_ s: SubscriptionStore.Subscription, _ reason: String) async {
        let id = s.id
        _ = await db { try $0.recordFailure(id: id, reason, now: Self.now()) }
        changed()
        state(s, "error: " + reason, level: .warning)
    }

    /// Logs `s`'s new state when it differs from the last one logged.
    private func state(_ s: SubscriptionStore.Subscription, _ state: String, detail: String = "", level: Logger.Level = .info) {
        let previous = logged.withLock { l in
            defer { l[s.id] = state }
            return l[s.id]
        }
        guard previous != state else { return }
        logger.log(level: level, "podcasts: \(s.title ?? s.url): \(state)\(detail)")
    }

    /// Downloads what is missing of subscription `id`'s newest episodes, two at a time (for every feed
    /// together), then rescans the library when a file arrived.
    private func download(_ id: Int64) async {
        guard let s = await db({ try $0.find(String(id)) }) ?? nil else { return }
        let keep = s.keep ?? settings.keep
        guard let wanted = await db({ try $0.toDownload(id: id, keep: keep) }), !wanted.isEmpty else { return }
        let folder = EpisodeFileName.folder(forShow: s.title ?? "", fallback: URL(string: s.url)?.host ?? "Podcast")
        let show = (show: s.title ?? folder, id: await db({ try $0.libraryShow(of: id) }) ?? nil)
        let cap = Int64(settings.maxEpisodeMB) * 1_000_000
        let downloader = EpisodeDownloader(http: http)
        let arrived = await withTaskGroup(of: Bool.self) { group in
            for episode in wanted {
                group.addTask { [self] in
                    (try? await scheduler.run { await self.download(episode, folder: folder, show: show, cap: cap, with: downloader) })
                        ?? false
                }
            }
            var any = false
            for await one in group { any = any || one }
            return any
        }
        if arrived { rescan() }
        changed()
    }

    /// Downloads one episode; true when a file arrived.
    private func download(
        _ e: SubscriptionStore.Episode, folder: String, show: (show: String, id: Int64?), cap: Int64,
        with downloader: EpisodeDownloader
    ) async -> Bool {
        guard let url = e.enclosureURL else { return false }
        let item = FeedItem(
            guid: e.guid, title: e.title, published: e.publishedAt.map { Date(timeIntervalSince1970: Double($0)) },
            enclosure: Enclosure(url: url, length: e.enclosureLength, type: e.enclosureType))
        let name = EpisodeFileName.make(for: item)
        let relative = "Podcasts/\(folder)/\(name)"
        let id = e.id
        _ = await db { try $0.setDownloading(episode: id, bytes: e.bytes, path: relative) }
        started(
            id, PodcastDownload(show: show.show, showID: show.id, episode: e.title, bytes: e.bytes, total: e.enclosureLength))
        defer { ended(id) }
        // Progress goes to the database at most once per 4 MB (a write per network piece would cost more
        // than the download); the piece sizes come from the network, so the step is a threshold.
        let recorded = ProgressMark()
        let store = self.store
        let progress: @Sendable (EpisodeDownloader.Progress) -> Void = { [weak self] p in
            self?.progressed(id, p)
            let write = recorded.bytes.withLock { last in
                guard p.received - last >= 4 << 20 else { return false }
                last = p.received
                return true
            }
            if write { try? NamedThread.detach(name: "podcast-db") { try? store.setDownloading(episode: id, bytes: p.received) } }
        }
        do {
            let outcome = try await downloader.download(
                url, to: music + "/Podcasts/" + folder, name: name,
                expectedBytes: e.enclosureLength.flatMap { $0 > 0 ? $0 : nil }, cap: cap, progress: progress)
            _ = await db { try $0.setDownloaded(episode: id, path: relative, bytes: outcome.bytes) }
            loggedEpisodes.withLock { _ = $0.removeValue(forKey: id) }
            if !outcome.alreadyPresent { logger.info("podcasts: downloaded \(relative) (\(outcome.bytes) bytes)") }
            return true
        } catch {
            if case .fetch(.cancelled, _) = error { return false }
            let reason = "\(error)"
            _ = await db { try $0.setFailed(episode: id, reason) }
            let repeated = loggedEpisodes.withLock { l in
                defer { l[id] = reason }
                return l[id] == reason
            }
            if !repeated { logger.warning("podcasts: cannot download \(e.title) (\(url)): \(reason)") }
            return false
        }
    }

    // MARK: Downloads on the device

    // Each hand-over is made under the lock, so the engine gets the lists in the order they were made
    // (a progress list made before a download ended never arrives after the list without it); it is a
    // post to the engine's queue, which takes no lock of this service.

    private func started(_ id: Int64, _ download: PodcastDownload) {
        active.withLock { a in
            if a.byEpisode.updateValue(download, forKey: id) == nil { a.order.append(id) }
            send(&a)
        }
    }

    /// Bytes arrived for episode `id`: handed on when the last hand-over is `progressEvery` old (the
    /// network's pieces come far more often than a screen can show them); else a flush hands on the
    /// latest when that time is up, so a download that stalls shows where it stopped.
    private func progressed(_ id: Int64, _ p: EpisodeDownloader.Progress) {
        let flushAfter = active.withLock { a -> Duration? in
            guard var d = a.byEpisode[id] else { return nil }
            d.bytes = p.received
            if let total = p.total, total > 0 { d.total = total }
            a.byEpisode[id] = d
            if let sent = a.sentAt, sent.duration(to: .now) < Self.progressEvery {
                guard !a.flushWaiting else { return nil }
                a.flushWaiting = true
                return Self.progressEvery - sent.duration(to: .now)
            }
            send(&a)
            return nil
        }
        guard let flushAfter else { return }
        // Only a sleep on the cooperative pool.
        Task { [weak self] in
            try? await Task.sleep(for: flushAfter)
            self?.active.withLock { a in
                a.flushWaiting = false
                self?.send(&a)
            }
        }
    }

    private func ended(_ id: Int64) {
        active.withLock { a in
            a.byEpisode[id] = nil
            a.order.removeAll { $0 == id }
            send(&a)
        }
    }

    private func send(_ a: inout Downloads) {
        a.sentAt = .now
        downloads(a.list)
    }

    /// A parsed feed in the store's terms.
    static func fetchedFeed(_ feed: Feed) -> SubscriptionStore.FetchedFeed {
        SubscriptionStore.FetchedFeed(
            title: feed.title.isEmpty ? nil : feed.title, author: feed.author, description: feed.description,
            imageURL: feed.imageURL,
            episodes: feed.items.map { item in
                SubscriptionStore.FetchedEpisode(
                    guid: item.guid.isEmpty ? (item.enclosure?.url ?? item.title) : item.guid, title: item.title,
                    publishedAt: item.published.map { Int64($0.timeIntervalSince1970) },
                    enclosureURL: item.isDownloadable ? item.enclosure?.url : nil, enclosureType: item.enclosure?.type,
                    enclosureLength: item.enclosure?.length, durationMS: item.duration.map { Int64($0 * 1000) },
                    description: item.summary, imageURL: item.imageURL ?? feed.imageURL)
            })
    }

    /// Runs `body` on the store on a named thread; a failure is logged and nil (a subscription deleted
    /// while it was being fetched is not a failure: nil without a line).
    private func db<T: Sendable>(_ body: @escaping @Sendable (SubscriptionStore) throws -> T) async -> T? {
        await NamedThread.run("podcast-db") { [store, logger] () -> T? in
            do {
                return try body(store)
            } catch SubscriptionStore.Failure.noSuchSubscription {
                return nil
            } catch {
                logger.error("podcasts: database: \(error)")
                return nil
            }
        }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    // MARK: PodcastControl (the socket's commands)

    func add(_ url: String) throws -> Int64 {
        let (id, added) = try store.add(url, now: Self.now())
        if added { logger.info("podcasts: subscribed to \(url)") }
        ask(id)
        changed()
        return id
    }

    func list() throws -> [SubscriptionStore.Subscription] {
        try store.all()
    }

    func delete(_ what: String) throws {
        guard let s = try store.find(what) else { throw SubscriptionStore.Failure.noSuchSubscription(what) }
        try store.delete(id: s.id)
        logged.withLock { _ = $0.removeValue(forKey: s.id) }
        logger.info("podcasts: unsubscribed from \(s.url)")
        changed()
    }

    func update(_ what: String?) throws {
        guard let what else {
            asked.withLock { $0.all = true }
            wake.yield()
            return
        }
        guard let s = try store.find(what) else { throw SubscriptionStore.Failure.noSuchSubscription(what) }
        ask(s.id)
    }

    func setKeep(_ what: String, _ keep: Int?) throws {
        guard let s = try store.find(what) else { throw SubscriptionStore.Failure.noSuchSubscription(what) }
        try store.setKeep(id: s.id, keep)
        logger.info("podcasts: \(s.url) keeps \(keep.map { "its \($0) newest episodes" } ?? "the configured number of episodes")")
        changed()
        // A larger number downloads the episodes now wanted (the fetch is a conditional one).
        ask(s.id)
    }

    private func ask(_ id: Int64) {
        asked.withLock { _ = $0.ids.insert(id) }
        wake.yield()
    }
}

/// The bytes of a download last written to the database (a class: the progress closure shares it).
private final class ProgressMark: Sendable {
    let bytes = Mutex<Int64>(0)
}
