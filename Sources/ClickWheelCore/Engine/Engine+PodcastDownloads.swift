/// Podcast episodes being downloaded, on the device (issue 34).
///
/// The podcast service posts `Event.podcastDownloads` with every download under way (a few times a
/// second at most, the service throttles); the engine reads nothing for them. A show's episode list
/// carries one row per episode of that show being downloaded, above its episodes (the newest come
/// first, and a download is the newest): "Title  42%", not playable (`MenuAction.downloading`). Podcasts
/// carries a row per show whose first episodes are still arriving (not in the library yet), after
/// Refresh. When a download ends its row goes; the episode comes back as a library row once the scan
/// that follows has indexed it.
///
/// The rows live in the list's `header` (the fixed rows above a list's library rows), so scrolling,
/// selecting and the cursor's anchor treat them as any fixed row. A cursor on a library row stays on
/// it when download rows come or go above it.
extension Engine {
    mutating func podcastDownloadsChanged(_ downloads: [PodcastDownload]) {
        guard downloads != caches.podcastDownloads else { return }
        caches.podcastDownloads = downloads
        for i in stack.indices {
            let page = withDownloadRows(stack[i])
            stack[i] = page
        }
        for i in stack.indices { fixTop(i) }
    }

    /// `page` with its download rows as the current downloads make them (unchanged when it is not a
    /// show's episodes or Podcasts).
    mutating func withDownloadRows(_ page: Page) -> Page {
        guard case .list(var screen) = page.destination, case .library(let list) = screen.source else { return page }
        let fixed = screen.header.filter { item in
            if case .downloading = item.action { return false }
            return true
        }
        let rows: [MenuItem]
        switch list {
        case .episodesOfShow(let show):
            rows = caches.podcastDownloads.filter { $0.belongs(toShow: show, titled: screen.title) }
                .map { MenuItem($0.episode, .downloading(progress: $0.progressLabel)) }
        case .podcastShows:
            var seen: Set<String> = []
            rows = caches.podcastDownloads.filter { $0.showID == nil && seen.insert($0.show.lowercased()).inserted }
                .map { MenuItem($0.show, .downloading(progress: $0.progressLabel)) }
        default:
            return page
        }
        let header = fixed + rows
        guard header != screen.header else { return page }
        var new = page
        let old = screen.header
        screen.header = header
        new.destination = .list(screen)
        if page.cursor >= old.count {
            // On a library row: the same row, below the new header.
            new.cursor = page.cursor - old.count + header.count
        } else if page.cursor >= fixed.count {
            // On a download row: the same download while it lasts, else the first row after the fixed ones.
            let title = old[page.cursor].title
            new.cursor = header.indices.first { $0 >= fixed.count && header[$0].title == title } ?? fixed.count
        }
        new.cursor = max(0, min(new.cursor, lineCount(of: new.destination) - 1))
        return new
    }
}
