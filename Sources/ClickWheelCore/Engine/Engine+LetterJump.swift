/// Letter jump: during a fast spin through a list sorted by name, each step lands on the first row
/// of the next (or previous) initial letter, and the title row shows that letter.
///
/// The rows of such lists are sorted by sort key, so the rows of one initial are contiguous: the
/// block boundaries are found by binary search through the page cache (a few page reads at most).
extension Engine {
    /// Items per step from which a spin jumps by letter instead of by rows (about 700 °/s on Normal).
    static let letterJumpItems = 40

    /// Lists sorted by name, where jumping by initial letter makes sense.
    static func sortedByName(_ list: BrowseList) -> Bool {
        switch list {
        case .playlists, .artists, .albums, .songs, .genres, .composers, .podcastShows, .artistsOfGenre,
            .songsOfGenre, .songsOfComposer:
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
        guard cursor >= 0, cursor < count, let here = row(cursor, of: screen.source)?.initial else { return nil }
        if items > 0 {
            // The first row after the cursor with another initial; the last row when there is none.
            let next = firstIndex(in: (cursor + 1)..<count, list: list) { $0 != here }
            return header + min(next, count - 1)
        }
        let blockStart = firstIndex(in: 0..<cursor, list: list) { $0 == here }
        if blockStart < cursor { return header + blockStart }
        guard cursor > 0, let previous = row(cursor - 1, of: screen.source)?.initial else { return header }
        return header + firstIndex(in: 0..<cursor, list: list) { $0 == previous }
    }

    /// The first index of `range` whose row's initial satisfies `test`, assuming the answer is
    /// monotonic over the range (false…false true…true); `range.upperBound` when none does.
    private mutating func firstIndex(in range: Range<Int>, list: BrowseList, _ test: (Character) -> Bool) -> Int {
        var lo = range.lowerBound
        var hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if let initial = rows.row(mid, of: list, in: library)?.initial, test(initial) {
                hi = mid
            } else {
                lo = mid + 1
            }
        }
        return lo
    }
}
