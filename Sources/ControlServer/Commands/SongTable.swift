import Foundation
import Library
import MPDProtocol
import NamedThreads

/// The library's songs as the browse commands read them (`LibrarySongs`), with each tag's values
/// numbered: a `TagColumn` per tag, made the first time a command asks for that tag and kept with the
/// songs until the library changes.
///
/// `list`, `count` and the filters of `find` and `search` then work on small integers per song instead
/// of strings: no string is hashed, compared or retained per song, and a filter's comparison is made
/// once per distinct value rather than once per song.
///
/// Thread rules: any thread but an event loop (the first use of a tag builds its column, a few ms).
/// The columns are `Locked` (not a `Mutex`): clients asking at once contend for them by design, and the
/// Thread Sanitizer sees only a pthread mutex's hand-off (see `Locked`).
final class SongTable: Sendable {
    /// Every song, in path order.
    let songs: [SongRecord]
    private let columns = Locked<[MPDTag: TagColumn]>([:])

    init(_ songs: [SongRecord]) {
        self.songs = songs
    }

    /// The column of `tag`, built on first use (under the lock, so that clients asking at once build it once).
    func column(_ tag: MPDTag) -> TagColumn {
        columns.withLock { columns in
            if let kept = columns[tag] { return kept }
            let made = TagColumn(songs, tag)
            columns[tag] = made
            return made
        }
    }

    /// Calls `body` with the index of each song `filter` (prepared over this table) matches, every song
    /// without one, until it returns false.
    func forEach(matching filter: SongFilter?, _ body: (Int) -> Bool) {
        guard let filter else {
            for i in songs.indices where !body(i) { return }
            return
        }
        let matched = filter.matches(in: self)
        for i in songs.indices where matched[i] && !body(i) { return }
    }
}

/// One tag's values over the library, as `list`, `count`, filters and `sort` see them
/// (`SongWriter.values`, a song without the tag having the one value ""), numbered in sorted order.
///
/// The numbers follow `String`'s `<` (the order the answers are sorted in), so sorting numbers sorts the
/// values, and equal values (`String`'s `==`) share a number, as they shared a `Set` entry before.
struct TagColumn: Sendable {
    /// The distinct values, sorted; a value's number is its index here.
    let values: [String]
    /// Every song's value numbers, one song after another, in `SongWriter.values`' order.
    private let numbers: [Int32]
    /// Where each song's numbers begin in `numbers`; one more entry than songs, for the last's end.
    private let starts: [Int32]

    init(_ songs: [SongRecord], _ tag: MPDTag) {
        var numbered: [String: Int32] = [:]
        var found: [String] = []
        var numbers: [Int32] = []
        var starts: [Int32] = [0]
        numbers.reserveCapacity(songs.count)
        starts.reserveCapacity(songs.count + 1)
        func add(_ value: String) {
            if let n = numbered[value] { return numbers.append(n) }
            let n = Int32(found.count)
            numbered[value] = n
            found.append(value)
            numbers.append(n)
        }
        for song in songs {
            let values = SongWriter.values(song, tag)
            if values.isEmpty { add("") } else { values.forEach(add) }
            starts.append(Int32(numbers.count))
        }
        // Renumber in sorted order.
        let order = found.indices.sorted { found[$0] < found[$1] }
        var rank = [Int32](repeating: 0, count: found.count)
        for (position, n) in order.enumerated() { rank[n] = Int32(position) }
        self.values = order.map { found[$0] }
        self.numbers = numbers.map { rank[Int($0)] }
        self.starts = starts
    }

    /// Calls `body` with each value number of the song at `index`.
    @inline(__always)
    func forEachNumber(of index: Int, _ body: (Int32) -> Void) {
        for k in Int(starts[index])..<Int(starts[index + 1]) { body(numbers[k]) }
    }

    /// Per song, whether one of its value numbers is marked in `marked` (a flag per value number).
    func songsHaving(_ marked: [Bool]) -> [Bool] {
        var out = [Bool](repeating: false, count: starts.count - 1)
        numbers.withUnsafeBufferPointer { numbers in
            starts.withUnsafeBufferPointer { starts in
                marked.withUnsafeBufferPointer { marked in
                    for song in 0..<starts.count - 1 {
                        for k in Int(starts[song])..<Int(starts[song + 1]) where marked[Int(numbers[k])] {
                            out[song] = true
                            break
                        }
                    }
                }
            }
        }
        return out
    }

    /// The first value number of the song at `index` (every song has at least one).
    @inline(__always)
    func firstNumber(of index: Int) -> Int32 { numbers[Int(starts[index])] }

    /// The number of `value`, if a song has it.
    func number(of value: String) -> Int32? {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < values.count && values[low] == value ? Int32(low) : nil
    }
}
