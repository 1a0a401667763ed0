/// The play queue: track ids in play order, each entry with a song id unique for the engine's lifetime,
/// and versions that say what changed when (MPD's `playlist:` version and `plchanges`).
///
/// Every operation that changes the queue bumps `version` once and stamps with it each entry whose
/// position or content changed, so `changes(since:)` lists exactly what a client must refetch. Song
/// ids start at 1 and are never reused. Plain data; the engine owns it.
public struct PlayQueue: Hashable, Sendable {
    /// One queue entry.
    public struct Entry: Hashable, Sendable {
        /// The song id (MPD's `Id:`), unique for the engine's lifetime.
        public let id: Int
        public let track: TrackID
        /// The queue version at which this entry last moved or was added.
        public fileprivate(set) var version: Int
        /// MPD's priority, 0…255 (kept and reported; the engine plays in queue order).
        public var priority: Int = 0
    }

    /// The longest queue MPD clients may build (MPD's `max_playlist_length`); the UI is not limited.
    public static let clientLimit = 16384

    public private(set) var entries: [Entry] = []
    /// Starts at 1, one more per change.
    public private(set) var version = 1
    private var nextID = 1

    public init() {}

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var indices: Range<Int> { entries.indices }
    /// The track ids in queue order.
    public var tracks: [TrackID] { entries.map(\.track) }
    /// The song ids in queue order.
    public var ids: [Int] { entries.map(\.id) }

    public subscript(index: Int) -> Entry { entries[index] }

    /// The position of song id `id`.
    public func index(ofID id: Int) -> Int? { entries.firstIndex { $0.id == id } }

    /// Entries changed after `version`, with their positions, in queue order. A version the queue
    /// has not reached (a client that knew an earlier run) is out of step: every entry, as MPD sends.
    public func changes(since version: Int) -> [(position: Int, entry: Entry)] {
        if version > self.version { return entries.enumerated().map { ($0.offset, $0.element) } }
        return entries.enumerated().compactMap { $0.element.version > version ? ($0.offset, $0.element) : nil }
    }

    /// Replaces everything with `tracks` (new song ids).
    public mutating func replace(with tracks: [TrackID]) {
        let new = newEntries(tracks)
        change { $0 = new }
    }

    /// Inserts `tracks` at `index` (clamped); returns their song ids.
    @discardableResult
    public mutating func insert(_ tracks: [TrackID], at index: Int) -> [Int] {
        let new = newEntries(tracks)
        change { $0.insert(contentsOf: new, at: max(0, min(index, $0.count))) }
        return new.map(\.id)
    }

    /// Removes the entries in `range` (clamped).
    public mutating func remove(_ range: Range<Int>) {
        let r = range.clamped(to: entries.indices)
        guard !r.isEmpty else { return }
        change { $0.removeSubrange(r) }
    }

    /// Moves the entries in `range` so the first lands at `to` (a position in the queue without them).
    public mutating func move(_ range: Range<Int>, to: Int) {
        change { entries in
            let moved = Array(entries[range])
            entries.removeSubrange(range)
            entries.insert(contentsOf: moved, at: max(0, min(to, entries.count)))
        }
    }

    public mutating func swapAt(_ a: Int, _ b: Int) {
        change { $0.swapAt(a, b) }
    }

    /// Puts the entries in the order of `ids` (a permutation of `self.ids`; ids missing from it keep
    /// their relative order at the end).
    public mutating func reorder(byIDs order: [Int]) {
        change { entries in
            let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0) })
            var seen = Set<Int>()
            var result: [Entry] = []
            result.reserveCapacity(entries.count)
            for id in order { if let e = byID[id], seen.insert(id).inserted { result.append(e) } }
            for e in entries where !seen.contains(e.id) { result.append(e) }
            entries = result
        }
    }

    public mutating func setPriority(_ priority: Int, at index: Int) {
        guard entries[index].priority != priority else { return }
        change { $0[index].priority = priority }
        // A priority change is a content change of that entry alone.
        entries[index].version = version
    }

    public mutating func removeAll() {
        // MPD's `clear`: a new version even when the queue was already empty.
        change { $0.removeAll() }
    }

    /// Runs `body` on the entries, then bumps the version and stamps every entry whose position changed.
    private mutating func change(_ body: (inout [Entry]) -> Void) {
        let old = entries.map(\.id)
        body(&entries)
        version += 1
        for i in entries.indices where i >= old.count || old[i] != entries[i].id {
            entries[i].version = version
        }
    }

    private mutating func newEntries(_ tracks: [TrackID]) -> [Entry] {
        let first = nextID
        nextID += tracks.count
        return tracks.enumerated().map { Entry(id: first + $0.offset, track: $0.element, version: version + 1) }
    }
}
