/// Chapters of the file playing (ID3v2 `CHAP`/`CTOC`, as the library indexed them) and Music → Audiobooks.
///
/// On a chaptered file the wheel's Next and Previous move between chapters by seeking inside the file:
/// Next goes to the following chapter's start (past the last, to the next track); Previous goes back
/// to the start of the chapter playing when more than 3 s into it, else to the previous chapter's
/// (before that, as for tracks). MPD clients' `next`/`previous` still move between tracks, as MPD's do.
/// Now Playing's context menu gains Chapters, listing them; selecting one plays from its start.
extension Engine {
    /// The chapters of one track, kept while it is current.
    struct ChapterCache: Hashable, Sendable {
        var id: TrackID
        var chapters: [Chapter]
    }

    /// The current track's chapters (empty when it has none or nothing is current), read once per track.
    mutating func currentChapters() -> [Chapter] {
        guard let id = player.currentID, player.hasCurrent else { return [] }
        if let cache = caches.chapterCache, cache.id == id { return cache.chapters }
        let chapters = (try? library.chapters(of: id)) ?? []
        caches.chapterCache = ChapterCache(id: id, chapters: chapters)
        return chapters
    }

    /// The title of the chapter playing, nil for a file without chapters (or before its first).
    mutating func currentChapterTitle() -> String? {
        let chapters = currentChapters()
        return chapters.index(at: player.elapsedMS).map { chapters[$0].title }
    }

    /// The wheel's Next: the next chapter of a chaptered file, else the next track.
    mutating func nextChapterOrTrack() -> [Effect] {
        if player.status != .stopped, let start = currentChapters().nextStart(after: player.elapsedMS) {
            return seekInFile(to: start)
        }
        return skip(by: 1)
    }

    /// The wheel's Previous: back to this chapter's start or the previous chapter, else as for tracks.
    mutating func previousChapterOrTrack() -> [Effect] {
        if player.status != .stopped, let start = currentChapters().previousStart(before: player.elapsedMS) {
            return seekInFile(to: start)
        }
        return previous()
    }

    /// Chapters → a chapter: moves to its start (playing or paused as it was) and goes back to Now Playing.
    mutating func seekChapter(_ index: Int) -> [Effect] {
        let chapters = currentChapters()
        while stack.count > 1, top.destination != .nowPlaying { _ = back() }
        guard chapters.indices.contains(index) else { return [] }
        return seekInFile(to: chapters[index].startMS)
    }

    /// Moves the current file to `ms`. A restored entry the shell has not loaded yet only moves its
    /// place: playing it loads it there (`resumePaused`).
    private mutating func seekInFile(to ms: Int) -> [Effect] {
        guard player.hasCurrent else { return [] }
        player.elapsedMS = max(0, ms)
        if resume.shellEmpty { return [.notify(.player)] }
        return [.playback(.seek(ms: player.elapsedMS)), .notify(.player)]
    }

    /// The Chapters menu's rows: each chapter's title.
    mutating func chapterItems() -> [MenuItem] {
        currentChapters().enumerated().map { MenuItem($0.element.title, .seekChapter($0.offset)) }
    }

    /// Chapters, last in the context menu of the file playing when opened from Now Playing and it has any.
    mutating func chaptersRow(for target: ContextTarget) -> [MenuItem] {
        guard stack.count >= 2, stack[stack.count - 2].destination == .nowPlaying,
            target.row.id == player.currentID, !currentChapters().isEmpty
        else { return [] }
        return [MenuItem("Chapters", .open(.menu(.chapters)))]
    }

    /// Whether Music lists Audiobooks: the library has at least one book.
    mutating func libraryHasAudiobooks() -> Bool {
        if let known = caches.audiobooksPresent { return known }
        let present = ((try? library.count(of: .audiobooks)) ?? 0) > 0
        caches.audiobooksPresent = present
        return present
    }
}
