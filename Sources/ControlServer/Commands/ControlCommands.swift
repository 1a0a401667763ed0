import Foundation
import Synchronization
public import Library
public import MPDProtocol

/// The command backend the server runs batches on: the command table (`allCommands`) over the library,
/// the player and the caches the commands share.
///
/// Thread rules: `execute` on a connection's command queue (any thread but the engine's).
public final class ControlCommands: Sendable {
    let table: MPDCommandTable<MPDContext>
    let catalog: Catalog
    let playlists: StoredPlaylists
    let stickers: StickerStore
    let messages = MessageBoard()
    private let clientCount = Atomic<UInt64>(0)
    let player: any PlayerStateSource
    let musicFolder: String
    let password: String?
    let started = Date()
    let currentSongs = CurrentSongCache()
    let librarySongs = LibrarySongs()
    /// The audio outputs MPD clients list and switch; one fixed output unless the service sets its list.
    let outputSwitch: any OutputSwitch
    /// The podcast subscriptions the `podcast…` commands manage; nil: none (those commands fail).
    let podcasts: (any PodcastControl)?
    /// Where `warmLibrary` reads, one read at a time (a thread of GCD's pool, off the event loop and
    /// Swift's cooperative pool).
    private let warming = DispatchQueue(label: "clickwheel.mpd.warm", qos: .utility)
    /// A read is queued on `warming` and has not begun: another ask folds into it.
    private let warmQueued = Atomic<Bool>(false)
    /// Forgets the kept playlists whenever their table is written (a client's `save`, the device's
    /// menus, a scan), at the commit, before the writing call returns.
    private let playlistWrites: TableCommits
    /// Forgets the kept `sticker find` answers whenever a play count, a rating or a track is written (the
    /// stickers table, without rowids, is not observable: the `sticker` command forgets them itself).
    private let stickerWrites: TableCommits

    /// `password`: when set, a client may only read until it sends it (MPD's `password` and
    /// `default_permissions "read"`).
    public init(
        catalog: Catalog, playlists: StoredPlaylists, player: any PlayerStateSource, musicFolder: String,
        password: String? = nil, outputs: any OutputSwitch = FixedOutput(), podcasts: (any PodcastControl)? = nil
    ) {
        outputSwitch = outputs
        self.podcasts = podcasts
        self.password = password
        self.musicFolder = musicFolder
        self.catalog = catalog
        self.playlists = playlists
        stickers = StickerStore(sameDatabaseAs: playlists)
        self.player = player
        table = MPDCommandTable(allCommands: Self.allCommands)
        let kept = librarySongs
        playlistWrites = TableCommits(playlists, tables: ["playlists"]) { kept.playlists.clear() }
        stickerWrites = TableCommits(playlists, tables: ["play_state", "tracks"]) { kept.stickerFinds.clear() }
    }

    /// A new client's state: every tag type, and every permission unless a password is set.
    public func newClient() -> MPDClientState {
        var c = MPDClientState(tagTypes: Set(MPDTag.tagtypes.map(\.name)))
        c.id = clientCount.add(1, ordering: .relaxed).newValue
        if password != nil { c.permission = .read }
        return c
    }

    /// A command context over this backend's library, player and caches, for `client`.
    private func makeContext(
        for client: MPDClientState, snapshot: PlayerSnapshot? = nil, onEventLoop: Bool = false,
        pinnedSong: SongRecord? = nil, pinnedFolders: MPDContext.PinnedFolders? = nil,
        pinnedStickers: [(path: String, value: String)]? = nil
    ) -> MPDContext {
        var context = MPDContext(
            catalog: catalog, playlists: playlists, stickers: stickers, messages: messages, player: player, musicFolder: musicFolder, password: password,
            client: client, started: started, currentSongs: currentSongs, librarySongs: librarySongs,
            snapshot: snapshot, onEventLoop: onEventLoop, pinnedSong: pinnedSong, pinnedFolders: pinnedFolders,
            pinnedStickers: pinnedStickers)
        context.outputSwitch = outputSwitch
        context.podcasts = podcasts
        return context
    }

    /// Runs `batch` (on a connection's command queue: it may read the database and wait for the engine).
    /// A streaming `writer` (`MPDResponseWriter(flushingAt:to:)`) hands large answers out in chunks.
    public func execute(
        _ batch: MPDCommandBatch, client: inout MPDClientState, writer: MPDResponseWriter = MPDResponseWriter()
    ) -> MPDBatchResult {
        var context = makeContext(for: client)
        if Self.answersFromSnapshot(batch) {
            // It went the slow way because the current song was not at hand: fetch it for the next one.
            let p = context.player()
            if let current = p.currentPosition { _ = try? context.currentSong(p.queue[current].track) }
        }
        let result = table.execute(batch, context: &context, writer: writer)
        client = context.client
        return result
    }

    /// Runs `batch` at once when it needs nothing but the published player state and the song playing
    /// now (`status`, `currentsong`, `ping`): no database read, no wait for the engine, so the event
    /// loop may run it. Nil when it needs more; then it must go to a command queue (`execute`).
    public func executeWithoutBlocking(_ batch: MPDCommandBatch, client: inout MPDClientState) -> MPDBatchResult? {
        guard Self.answersFromSnapshot(batch) else {
            guard batch.mode == .single else { return nil }
            if batch.lines[0].first == UInt8(ascii: "l"), Self.rootListings.contains(batch.lines[0]) {
                return listRootWithoutBlocking(batch, client: &client)
            }
            if batch.lines[0].starts(with: Self.stickerFindLine) {
                return findStickersWithoutBlocking(batch, client: &client)
            }
            return nil
        }
        let p = player.snapshot()
        var song: SongRecord?
        if let current = p.currentPosition {
            guard let cached = currentSongs.song(p.queue[current].track) else { return nil }
            song = cached
        }
        var context = makeContext(for: client, snapshot: p, onEventLoop: true, pinnedSong: song)
        let result = table.execute(batch, context: &context)
        client = context.client
        return result
    }

    /// What the answer to `status` depends on, read without a lock: the player's publication and the song
    /// cache's generation; nil while playing (the time runs). Read before the answer is made, an answer
    /// holds for as long as the stamp stays the same (`StatusCache`).
    public func statusStamp() -> StatusStamp? {
        guard let player = player.snapshotStamp() else { return nil }
        return StatusStamp(player: player, songs: currentSongs.generation)
    }

    /// The requests for the music folder's listing, as clients send them.
    private static let rootListings: Set<[UInt8]> = Set(
        ["lsinfo", "lsinfo \"\"", "lsinfo \"/\""].map { Array($0.utf8) })

    private static let stickerFindLine = Array("sticker find song \"\" ".utf8)

    /// `sticker find song "" NAME`, answered at once when its answer is kept (`LibrarySongs.stickerFinds`):
    /// the hop to a command queue and back cost more than the answer. Nil otherwise.
    private func findStickersWithoutBlocking(
        _ batch: MPDCommandBatch, client: inout MPDClientState
    ) -> MPDBatchResult? {
        guard let request = try? MPDTokenizer.tokenize(batch.lines[0][...]), request.arguments.count == 4,
            let found = librarySongs.stickerFinds.kept(request.arguments[3].string)
        else { return nil }
        var context = makeContext(for: client, onEventLoop: true, pinnedStickers: found)
        let result = table.execute(batch, context: &context)
        client = context.client
        return result
    }

    /// `lsinfo` of the music folder, answered at once when everything it reads is kept in memory (the
    /// folders, the playlists, and the songs if some lie in the music folder itself): clients ask for it
    /// first, and the hop to a command queue and back cost more than the answer. Nil when something
    /// must be read first.
    private func listRootWithoutBlocking(_ batch: MPDCommandBatch, client: inout MPDClientState) -> MPDBatchResult? {
        guard let tree = librarySongs.tree.kept, let playlists = librarySongs.playlists.kept else { return nil }
        var songs: SongTable?
        if tree.times[""] != nil {
            guard let kept = librarySongs.songs.kept else { return nil }
            songs = kept
        }
        var context = makeContext(
            for: client, onEventLoop: true,
            pinnedFolders: MPDContext.PinnedFolders(tree: tree, playlists: playlists, songs: songs))
        let result = table.execute(batch, context: &context)
        client = context.client
        return result
    }

    /// The library changed (a scan found changes): the song kept for `status` may have new tags, and
    /// what the library commands keep is read again.
    func libraryChanged() {
        currentSongs.clear()
        librarySongs.clear()
        warmLibrary()
    }

    /// Reads what the library commands keep (`stats`' counts, the folders, the playlists, every song: `LibrarySongs`)
    /// before any client asks, on a queue of its own: when the server starts and after each library
    /// change. MPD loads its whole database at start; without this, the first `list`, `find` or
    /// `listallinfo` after a start or a rescan would read the whole library first (figures in
    /// contrib/bench/README.md). A client asking meanwhile waits for this read rather than making
    /// another (`KeptUntilChange`); a read the library changed under is not kept. A read that fails is
    /// left for the client's own read to report.
    func warmLibrary() {
        guard !warmQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        warming.async { [self] in
            warmQueued.store(false, ordering: .releasing)
            let context = makeContext(for: newClient())
            _ = try? context.libraryStatistics()
            _ = try? context.folderTree()
            _ = try? context.allPlaylists()
            // The columns of the tags clients browse and sort by, so that their first `list` does not make them.
            let table = try? context.songTable()
            for tag in [MPDTag.artist, .albumArtist, .album, .genre, .title] { _ = table?.column(tag) }
        }
    }

    /// Returns once the reads `warmLibrary` was asked for so far are done.
    func waitUntilWarm() {
        warming.sync {}
    }

    /// Whether every command of `batch` is one that reads only the player state and the current song.
    static func answersFromSnapshot(_ batch: MPDCommandBatch) -> Bool {
        guard batch.lines.count <= 16 else { return false }
        return batch.lines.allSatisfy { line in
            let name = line.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            return snapshotCommands.contains { $0.elementsEqual(name) }
        }
    }

    private static let snapshotCommands: [[UInt8]] = ["status", "currentsong", "ping"].map { Array($0.utf8) }
}

/// The state a `status` answer is made from, as two numbers (`ControlCommands.statusStamp`).
public struct StatusStamp: Equatable, Sendable {
    let player: UInt64
    let songs: Int
}
