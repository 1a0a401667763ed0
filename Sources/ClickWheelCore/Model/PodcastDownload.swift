/// An episode the podcast service is downloading, as the menus show it (issue 34): under its show, with
/// its progress, and not playable until the file is complete and indexed.
public struct PodcastDownload: Hashable, Sendable {
    /// The show's name as the subscription knows it (the feed's title).
    public var show: String
    /// The show's row id in the library (`BrowseList.podcastShows`) when it has one: an episode of it is
    /// already indexed. Nil for a show whose first episodes are still arriving: the download is then
    /// matched by name, and the show is listed under Podcasts by the engine until its files arrive.
    public var showID: Int64?
    public var episode: String
    /// Bytes received so far.
    public var bytes: Int64
    /// The whole size when the server or the feed told it.
    public var total: Int64?

    public init(show: String, showID: Int64? = nil, episode: String, bytes: Int64, total: Int64? = nil) {
        self.show = show
        self.showID = showID
        self.episode = episode
        self.bytes = bytes
        self.total = total
    }

    /// What the row shows at its right: the share done ("42%"), or the megabytes so far ("12M") when the
    /// size is not known. Never 100 %: the file is complete only once renamed into place.
    public var progressLabel: String {
        if let total, total > 0 { return "\(min(99, max(0, Int(bytes * 100 / total))))%" }
        return "\(bytes / 1_000_000)M"
    }

    /// True when this download belongs under the show list with row id `id` and title `title`.
    public func belongs(toShow id: Int64, titled title: String) -> Bool {
        if let showID { return showID == id }
        return show.lowercased() == title.lowercased()
    }
}
