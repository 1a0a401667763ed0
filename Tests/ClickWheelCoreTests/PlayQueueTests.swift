import ClickWheelCore
import ClickWheelTestKit
import Testing

/// The play queue's ids and versions, and the engine's control requests, in-process without audio.
@Suite struct PlayQueueTests {
    @Test func idsAreNeverReusedAndVersionsStampWhatMoved() {
        var q = PlayQueue()
        #expect(q.version == 1)
        let first = q.insert([10, 11, 12], at: 0)
        #expect(first == [1, 2, 3] && q.version == 2)
        q.remove(0..<1)
        #expect(q.ids == [2, 3] && q.version == 3)
        #expect(q.changes(since: 2).map(\.position) == [0, 1])  // both shifted
        let more = q.insert([13], at: 2)
        #expect(more == [4])  // id 1 is gone but never comes back
        #expect(q.changes(since: 3).map(\.entry.id) == [4])
        q.move(2..<3, to: 0)
        #expect(q.ids == [4, 2, 3] && q.changes(since: 4).count == 3)
        q.swapAt(1, 2)
        #expect(q.changes(since: 5).map(\.entry.id) == [3, 2])
        q.setPriority(7, at: 0)
        #expect(q.changes(since: 6).map(\.entry.id) == [4] && q[0].priority == 7)
        q.reorder(byIDs: [2, 3, 4])
        #expect(q.tracks == [11, 12, 13])
        q.removeAll()
        #expect(q.isEmpty && q.version == 9)
    }

    static func engine() -> EngineHarness {
        EngineHarness(library: Fixtures.numbered(10), geometry: DisplayGeometry(columns: 20, rows: 4))
    }

    @discardableResult
    static func control(_ h: inout EngineHarness, _ r: ControlRequest) -> Result<[Int], ControlError> {
        h.engine.control(r, at: h.now).result
    }

    /// A version the queue never reached (a client that knew an earlier run, or MPD's 32-bit wrap
    /// of `plchanges -1`) gets every entry, as MPD sends.
    @Test func aVersionFromTheFutureGetsEverything() {
        var q = PlayQueue()
        q.insert([10, 11, 12], at: 0)
        q.insert([13], at: 3)
        #expect(q.changes(since: q.version).isEmpty)
        #expect(q.changes(since: q.version - 1).map(\.position) == [3])
        #expect(q.changes(since: q.version + 1).map(\.position) == [0, 1, 2, 3])
        #expect(q.changes(since: Int(UInt32.max)).count == 4)
    }

    @Test func shuffleAndUnshuffleKeepTheCurrentSongAndTheListOrder() throws {
        var h = Self.engine()
        Self.control(&h, .add([1, 2, 3, 4, 5, 6], at: nil))
        Self.control(&h, .play(position: 2))
        let listIDs = h.engine.player.entries.ids
        Self.control(&h, .random(true))
        #expect(h.engine.player.currentSongID == 3 && h.engine.player.current == 0)
        #expect(Set(h.engine.player.entries.ids) == Set(listIDs))
        Self.control(&h, .add([7], at: nil))  // added while shuffled: at the end of the list order
        Self.control(&h, .random(false))
        #expect(h.engine.player.entries.ids == listIDs + [7])
        #expect(h.engine.player.currentSongID == 3 && h.engine.player.current == 2)
    }

    /// MPD forgets the current song when `random` changes while stopped (`status` then names no `song`
    /// or `nextsong`) and leaves the queue as it is; `play` then starts a fresh random order, and
    /// `random 0` gives the list order back.
    @Test func randomWhileStoppedForgetsTheCurrentSongAndPlayStartsAFreshOrder() {
        var h = Self.engine()
        Self.control(&h, .add([1, 2, 3, 4, 5, 6], at: nil))
        Self.control(&h, .play(position: 2))
        Self.control(&h, .stop)
        #expect(h.engine.player.current == 2)
        let listIDs = h.engine.player.entries.ids, version = h.engine.player.entries.version
        Self.control(&h, .random(true))
        #expect(h.engine.player.current == nil)
        #expect(h.engine.player.entries.ids == listIDs && h.engine.player.entries.version == version)
        Self.control(&h, .play(position: nil))
        #expect(h.engine.player.status == .playing && h.engine.player.current == 0)
        #expect(h.engine.player.entries.ids != listIDs && Set(h.engine.player.entries.ids) == Set(listIDs))
        Self.control(&h, .stop)
        Self.control(&h, .random(false))
        #expect(h.engine.player.current == nil && h.engine.player.entries.ids == listIDs)
        // While playing, random keeps the current song (MPD too).
        Self.control(&h, .play(position: 4))
        Self.control(&h, .random(true))
        #expect(h.engine.player.currentSongID == listIDs[4] && h.engine.player.current == 0)
        // Setting random to what it is already forgets nothing.
        Self.control(&h, .stop)
        Self.control(&h, .random(true))
        #expect(h.engine.player.currentSongID == listIDs[4])
    }

    /// MPD's `clear` is a new queue version even on an empty queue: a command list `clear` + a
    /// failing `add` changed the queue for its clients.
    @Test func clearOnAnEmptyQueueIsANewVersion() {
        var h = Self.engine()
        let version = h.engine.player.entries.version
        Self.control(&h, .clear)
        #expect(h.engine.player.entries.version == version + 1)
        #expect(h.engine.control(.clear, at: h.now).effects.contains(.notify(.playlist)))
        #expect(h.engine.player.entries.version == version + 2)
    }

    @Test func errorsNameMPDsReasons() {
        var h = Self.engine()
        #expect(Self.control(&h, .next) == .failure(.notPlaying))
        #expect(Self.control(&h, .add([1], at: .afterCurrent(0))) == .failure(.noCurrentSong))
        #expect(Self.control(&h, .add([1], at: .absolute(5))) == .failure(.positionTooLarge(5)))
        #expect(Self.control(&h, .add([1, 2], at: nil)) == .success([1, 2]))
        #expect(Self.control(&h, .play(position: 9)) == .failure(.badSongIndex))
        #expect(Self.control(&h, .playID(99)) == .failure(.noSuchSong))
        #expect(Self.control(&h, .delete(QueueSlice(start: 3, end: nil))) == .failure(.badSongIndex))
        #expect(Self.control(&h, .delete(QueueSlice(start: 2, end: nil))) == .success([]))  // the end: nothing
        #expect(Self.control(&h, .add(Array(repeating: 1, count: PlayQueue.clientLimit), at: nil)) == .failure(.queueTooLarge))
    }

    @Test func consumeRemovesPlayedTracksAndSingleStops() {
        var h = Self.engine()
        Self.control(&h, .add([1, 2, 3], at: nil))
        Self.control(&h, .play(position: 0))
        Self.control(&h, .consume(true))
        h.send(.playback(.finished(index: 0), at: h.now))
        #expect(h.engine.player.queue == [2, 3] && h.engine.player.current == 0 && h.engine.player.status == .playing)
        Self.control(&h, .consume(false))
        Self.control(&h, .single(.on))
        #expect(h.engine.entry(after: 0) == nil)
        h.send(.playback(.finished(index: 0), at: h.now))
        #expect(h.engine.player.status == .stopped && h.engine.player.currentID == 2)
        Self.control(&h, .repeatMode(true))
        #expect(h.engine.settings.repeatMode == .one && h.engine.mpdSingle == .on)
        Self.control(&h, .single(.off))
        #expect(h.engine.settings.repeatMode == .all)
    }
}
