/// Decides whether a track is a podcast episode, and of which show.
enum Podcasts {
    /// An episode has TCON "Podcast", a PCST frame (already set by the tag mapping), or lives under a
    /// `Podcasts/` folder; its show is the album tag, else the folder it sits in.
    static func classify(relativePath: String, _ m: inout TrackMetadata) {
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
