/// One podcast subscription as the page lists it (what `podcastlist` says of it).
public struct WebPodcastFeed: Hashable, Sendable {
    public var id: Int64
    public var url: String
    /// The feed's title once fetched; nil before.
    public var title: String?
    /// Episodes the feed lists.
    public var episodes: Int
    /// Episodes downloaded and not yet played.
    public var new: Int
    /// Its last successful fetch (Unix seconds, a 304 included); nil before the first.
    public var updated: Int64?
    /// Why its last fetch failed; nil when it succeeded.
    public var error: String?

    public init(id: Int64, url: String, title: String?, episodes: Int, new: Int, updated: Int64?, error: String?) {
        self.id = id
        self.url = url
        self.title = title
        self.episodes = episodes
        self.new = new
        self.updated = updated
        self.error = error
    }
}

/// What the page's Podcasts panel does, done by the service's podcast part (the same calls the socket's
/// `podcastadd`, `podcastlist`, `podcastdelete` and `podcastupdate` make). A failure's description is
/// shown on the page as it is.
///
/// Thread rules: called on the remote's podcast queue (never the event loop); the calls may block on the
/// database but never wait for a fetch.
public protocol WebPodcastActions: Sendable {
    func list() throws -> [WebPodcastFeed]
    /// Subscribes to `url` (a bad address throws) and fetches it soon.
    func add(_ url: String) throws
    func delete(_ id: Int64) throws
    /// Fetches feed `id` now (nil: every feed); returns at once.
    func update(_ id: Int64?) throws
}
