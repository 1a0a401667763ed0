/// Letter jump: during a fast spin through a list sorted by name, each step lands on the first row
/// of the next (or previous) initial letter, and the title row shows that letter.
///
/// The rows of such lists are sorted by sort key, so the rows of one initial are contiguous: the
/// library port finds a block's bounds (`LibraryReading.initialBlock`; one index lookup in SQLite).
extension Engine {
    /// Items per step from which a spin jumps by letter instead of by rows (about 700 °/s on Normal).
    static let letterJumpItems = 40

    /// Lists sorted by name, where jumping by initial letter makes sense.
    static func sortedByName(_ list: BrowseList) -> Bool {
        switch list {
        case .playlists, .artists, .albums, .songs, .genres, .composers, .podcastShows, .artistsOfGenre,
            .songsOfGenre, .songsOfComposer, .artistsWithoutCompilations, .compilations:
            return true
        default:
            return false
        }
    }

    /// The line a fast step of `items` lands on by letter, nil when the list does not jump by letter.
    mutating func letterJumpTarget(items: Int) -> Int? {
        guard abs(items) >= Self.letterJumpItems, case .list(let screen) = top.destination,
            case .library(let list) = screen.source, Self.sortedByName(list)
        else { return nil }
        let header = screen.header.count
        let cursor = top.cursor - header
        let count = rows.count(of: list, in: library)
        guard cursor >= 0, cursor < count, let block = try? library.initialBlock(containing: cursor, in: list) else {
            return nil
        }
        if items > 0 {
            // The first row of the next initial; the last row when there is none.
            return header + min(block.upperBound, count - 1)
        }
        if block.lowerBound < cursor { return header + block.lowerBound }
        guard cursor > 0, let previous = try? library.initialBlock(containing: cursor - 1, in: list) else { return header }
        return header + previous.lowerBound
    }
}
