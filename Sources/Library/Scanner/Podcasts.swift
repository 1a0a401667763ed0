/// Decides whether a track is a podcast episode, and of which show.
enum Podcasts {
    /// What a podcast subscription says of an episode it downloaded (`SubscriptionStore`): what the file's
    /// own tags lack is taken from it.
    struct FeedEpisode: Sendable, Hashable {
        var title: String
        var show: String?
        var author: String?
        /// `YYYY-MM-DD` (UTC), the item's publication date.
        var date: String?
        var description: String?
        var feedURL: String
    }

    /// An episode has TCON "Podcast", a PCST frame (already set by the tag mapping), lives under a
    /// `Podcasts/` folder, or was downloaded by a subscription (`feed`); its show is the album tag (else
    /// the feed's title), else the folder it sits in.
    static func classify(relativePath: String, _ m: inout TrackMetadata, feed: FeedEpisode? = nil) {
        if let feed {
            m.isPodcast = true
            if m.title.isEmpty, !feed.title.isEmpty { m.title = feed.title }
            if m.album.isEmpty, let show = feed.show, !show.isEmpty { m.album = show }
            if m.artists.isEmpty, let author = feed.author, !author.isEmpty { m.artists = [author] }
            if m.date == nil, let date = feed.date {
                m.date = date
                if m.year == nil { m.year = Int(date.prefix(4)) }
            }
            if m.podcastDescription == nil { m.podcastDescription = feed.description }
            if m.feedURL == nil { m.feedURL = feed.feedURL }
        }
        let folders = relativePath.split(separator: "/").dropLast()
        let underPodcasts = folders.contains { $0.lowercased() == "podcasts" }
        if m.genres.contains(where: { $0.lowercased() == "podcast" }) || underPodcasts { m.isPodcast = true }
        guard m.isPodcast else { return }
        if !m.album.isEmpty {
            m.podcastShow = m.album
        } else if let folder = folders.last, folder.lowercased() != "podcasts" {
            m.podcastShow = String(folder)
            m.album = String(folder)
        } else {
            m.podcastShow = m.artists.first ?? "Podcasts"
        }
        if m.releaseDate == nil { m.releaseDate = m.date }
    }
}
