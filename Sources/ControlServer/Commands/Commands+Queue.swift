import ClickWheelCore
import MPDProtocol

/// The queue: what is added to it and from where, its order and priorities, and its entries as the
/// queue listings show them.
extension ControlCommands {
    /// `add URI [POSITION]`: adds the song, or every song of the folder, at URI.
    static func add(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let uri = try MusicPath.normalize(req.arguments[0], command: "add")
        let at = try position(req.arguments.dropFirst().first, &ctx)
        let ids = try libraryCall { try ctx.catalog.trackIDs(uri: uri) }
        guard !ids.isEmpty else { throw .noExist("No such directory") }
        _ = try ctx.control(.add(ids, at: at))
    }

    /// `addid URI [POSITION]`: adds one song and answers its entry's `Id`.
    static func addid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let at = try position(req.arguments.dropFirst().first, &ctx)
        guard let uri = try? MusicPath.normalize(req.arguments[0], command: "addid"),
            let id = try libraryCall({ try ctx.catalog.trackID(path: uri) })
        else { throw .noExist("No such song") }
        let songIDs = try ctx.control(.add([id], at: at))
        if let songID = songIDs.first { w.field("Id", songID) }
    }

    /// `findadd FILTER [sort TAG] [window START:END] [position POS]`: adds the songs `find` lists.
    static func findadd(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let (songs, at) = try matchingSongs(&ctx, req, foldCase: false, adding: true)
        _ = try ctx.control(.add(songs.map(\.id), at: try position(at, &ctx)))
    }

    /// `searchadd FILTER [sort TAG] [window START:END] [position POS]`: adds the songs `search` lists.
    static func searchadd(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let (songs, at) = try matchingSongs(&ctx, req, foldCase: true, adding: true)
        _ = try ctx.control(.add(songs.map(\.id), at: try position(at, &ctx)))
    }

    /// `load NAME [START:END] [POSITION]`: adds a playlist's songs (`playlistSongs`).
    static func load(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let at = try position(req.arguments.dropFirst(2).first, &ctx)
        let songs = try playlistSongs(&ctx, req)
        _ = try ctx.control(.add(songs.map(\.id), at: at))
    }

    /// `clear`: empties the queue.
    static func clear(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.clear)
    }

    /// `delete SONGPOS|START:END`.
    static func delete(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.delete(try slice(req.arguments[0])))
    }

    /// `deleteid SONGID`.
    static func deleteid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        _ = try ctx.control(.deleteID(Int(try req.arguments[0].unsigned())))
    }

    /// `move SONGPOS|START:END TO`: TO may be relative to the current entry (`position`).
    static func move(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let from = try slice(req.arguments[0])
        let to = try position(req.arguments[1], &ctx, moving: from) ?? .absolute(0)
        _ = try ctx.control(.move(from, to: to))
    }

    /// `moveid SONGID TO`: TO may be relative to the current entry (`position`).
    static func moveid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let id = Int(try req.arguments[0].unsigned())
        let moving = ctx.player().queue.index(ofID: id).map { QueueSlice.single($0) }
        let to = try position(req.arguments[1], &ctx, moving: moving) ?? .absolute(0)
        _ = try ctx.control(.moveID(id, to: to))
    }

    /// `swap SONGPOS1 SONGPOS2`.
    static func swap(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let (a, b) = (Int(try req.arguments[0].unsigned()), Int(try req.arguments[1].unsigned()))
        _ = try ctx.control(.swap(a, b))
    }

    /// `swapid SONGID1 SONGID2`.
    static func swapid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let (a, b) = (Int(try req.arguments[0].unsigned()), Int(try req.arguments[1].unsigned()))
        _ = try ctx.control(.swapID(a, b))
    }

    /// `shuffle [START:END]`: shuffles the queue, or a range of it.
    static func shuffle(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let range = try req.arguments.first.map { a throws(MPDError) in try slice(a) }
        _ = try ctx.control(.shuffle(range))
    }

    /// `prio PRIORITY START:END…`: sets the priority (0–255) of the entries in the ranges.
    static func prio(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let priority = Int(try req.arguments[0].unsigned(max: 255))
        let slices = try req.arguments.dropFirst().map { a throws(MPDError) in try slice(a) }
        _ = try ctx.control(.priority(priority, slices: slices))
    }

    /// `prioid PRIORITY SONGID…`: sets the priority (0–255) of the entries.
    static func prioid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let priority = Int(try req.arguments[0].unsigned(max: 255))
        let ids = try req.arguments.dropFirst().map { a throws(MPDError) in Int(try a.unsigned()) }
        _ = try ctx.control(.priorityID(priority, ids: ids))
    }

    /// `playlistid [SONGID]`: song blocks for the queue, or for the entry with SONGID.
    static func playlistid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let p = ctx.player()
        var positions = Array(p.queue.indices)
        if let arg = req.arguments.first {
            guard let i = p.queue.index(ofID: Int(try arg.unsigned())) else { throw .noExist("No such song") }
            positions = [i]
        }
        try writeEntries(positions, of: p.queue, &ctx, &w)
    }

    /// `plchanges VERSION [START:END]`: song blocks for the entries changed since the queue's VERSION.
    static func plchanges(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter) throws(MPDError) {
        let p = ctx.player()
        let positions = try changedPositions(p.queue, req)
        try writeEntries(positions, of: p.queue, &ctx, &w)
    }

    /// `plchangesposid VERSION [START:END]`: the positions and ids of the entries changed since VERSION.
    static func plchangesposid(_ ctx: inout MPDContext, _ req: MPDRequest, _ w: inout MPDResponseWriter)
        throws(MPDError)
    {
        let p = ctx.player()
        for position in try changedPositions(p.queue, req) {
            w.field("cpos", position)
            w.field("Id", p.queue[position].id)
        }
    }

    /// An insertion position: `N`, or `+N`/`-N` relative to the current song; nil when absent.
    ///
    /// A relative position is checked in MPD's order: a current song first (`No current song`),
    /// then, for `move`, that the current song is not among those `moving` (`Cannot move current
    /// song relative to itself`), then the number; the engine checks it against the queue.
    static func position(
        _ argument: MPDArgument?, _ ctx: inout MPDContext, moving: QueueSlice? = nil
    ) throws(MPDError) -> QueuePosition? {
        guard let argument else { return nil }
        guard let sign = argument.bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            return .absolute(Int(try argument.unsigned()))
        }
        let player = ctx.player()
        guard let current = player.currentPosition else { throw .playerSync("No current song") }
        if let moving, current >= moving.start, current < moving.end ?? player.queue.count {
            throw .argument("Cannot move current song relative to itself")
        }
        let n = Int(try MPDArgument(bytes: argument.bytes.dropFirst()).unsigned())
        return sign == UInt8(ascii: "+") ? .afterCurrent(n) : .beforeCurrent(n)
    }

    static func slice(_ argument: MPDArgument) throws(MPDError) -> QueueSlice {
        let r = try argument.range()
        return QueueSlice(start: r.start, end: r.end)
    }

    /// Positions of entries changed after version V (`plchanges V [S:E]`), within the window if given.
    static func changedPositions(_ queue: PlayQueue, _ req: MPDRequest) throws(MPDError) -> [Int] {
        let version = try req.arguments[0].queueVersion()
        var window = queue.indices
        if req.arguments.count > 1 {
            // Unlike the listings, a window past the queue is no error here: nothing changed in it.
            window = try req.arguments[1].range().clampedOrEmpty(toCount: queue.count)
        }
        return queue.changes(since: version).map(\.position).filter { window.contains($0) }
    }

    /// Song blocks for queue entries: the song, then `Pos`, `Id` and `Prio` (when set).
    /// `current`: the one position is the current entry (its song comes from `MPDContext.currentSong`).
    /// The songs are read a chunk at a time: with a streaming writer, a long queue's listing goes out
    /// as it is made, and never sits in memory whole.
    static func writeEntries(
        _ positions: [Int], of queue: PlayQueue, _ ctx: inout MPDContext, _ w: inout MPDResponseWriter, current: Bool = false
    ) throws(MPDError) {
        let tags = SongWriter.Tags(ctx.client.tagTypes)
        for start in stride(from: 0, to: positions.count, by: 500) {
            let part = positions[start..<min(positions.count, start + 500)]
            let songs = current && positions.count == 1
                ? try ctx.currentSong(queue[positions[0]].track).map { [$0] } ?? []
                : try libraryCall { try ctx.catalog.songs(ids: part.map { queue[$0].track }) }
            let byID = Dictionary(songs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for position in part {
                let entry = queue[position]
                if let song = byID[entry.track] {
                    SongWriter.write(song, tags: tags, into: &w)
                } else {
                    w.field("file", "(removed from the library)")
                }
                w.field("Pos", position)
                w.field("Id", entry.id)
                if entry.priority > 0 { w.field("Prio", entry.priority) }
            }
        }
    }
}
