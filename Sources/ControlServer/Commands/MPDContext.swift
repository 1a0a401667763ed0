import ClickWheelCore
import Foundation
import Library
public import MPDProtocol

/// What a command handler works with: the library, playback state read once per batch, the client's
/// own state.
public struct MPDContext: MPDCommandContext {
    public var permission: MPDPermission { client.permission }
    let catalog: Catalog
    let playlists: StoredPlaylists
    let stickers: StickerStore
    let messages: MessageBoard
    let playerSource: any PlayerStateSource
    let musicFolder: String
    let password: String?
    var client: MPDClientState
    let started: Date
    let currentSongs: CurrentSongCache
    let librarySongs: LibrarySongs
    private var cachedPlayer: PlayerSnapshot?
    /// On the event loop (`executeWithoutBlocking`): the current song taken from the cache beforehand;
    /// the database is never read.
    private let onEventLoop: Bool
    private let pinnedSong: SongRecord?
    /// On the event loop: what `lsinfo` of the music folder reads, taken from what is kept beforehand.
    private let pinnedFolders: PinnedFolders?
    /// On the event loop: `sticker find song "" NAME`'s answer, taken from what is kept beforehand.
    let pinnedStickers: [(path: String, value: String)]?
    /// The audio outputs (`outputs`, `enableoutput`…).
    var outputSwitch: any OutputSwitch = FixedOutput()
    /// The podcast subscriptions (`podcastadd`…); nil: no podcast service.
    var podcasts: (any PodcastControl)?

    /// What `lsinfo` of the music folder reads, all of it kept in memory (`executeWithoutBlocking`).
    struct PinnedFolders {
        let tree: DirectoryTree.Folders
        let playlists: Catalog.AllPlaylists
        /// Nil when no song lies in the music folder itself (then the songs are not read).
        let songs: SongTable?
    }

    init(
        catalog: Catalog, playlists: StoredPlaylists, stickers: StickerStore, messages: MessageBoard, player: any PlayerStateSource, musicFolder: String,
        password: String?, client: MPDClientState, started: Date, currentSongs: CurrentSongCache,
        librarySongs: LibrarySongs, snapshot: PlayerSnapshot? = nil, onEventLoop: Bool = false,
        pinnedSong: SongRecord? = nil, pinnedFolders: PinnedFolders? = nil,
        pinnedStickers: [(path: String, value: String)]? = nil
    ) {
        self.pinnedFolders = pinnedFolders
        self.pinnedStickers = pinnedStickers
        self.onEventLoop = onEventLoop
        self.pinnedSong = pinnedSong
        self.password = password
        self.musicFolder = musicFolder
        self.catalog = catalog
        self.playlists = playlists
        self.stickers = stickers
        self.messages = messages
        self.playerSource = player
        self.client = client
        self.started = started
        self.currentSongs = currentSongs
        self.librarySongs = librarySongs
        cachedPlayer = snapshot
    }

    /// The song of queue entry `track` (the current one, for `status` and `currentsong`): from the
    /// cache when it holds that song, else read from the library (and kept).
    func currentSong(_ track: Int64) throws(MPDError) -> SongRecord? {
        if onEventLoop { return pinnedSong?.id == track ? pinnedSong : nil }
        if let song = currentSongs.song(track) { return song }
        let generation = currentSongs.generation
        let song = try libraryCall { try catalog.songs(ids: [track]).first }
        if let song { currentSongs.keep(song, readIn: generation) }
        return song
    }

    /// Every song of the library, in path order (kept in memory between commands: `LibrarySongs`).
    func allSongs() throws(MPDError) -> [SongRecord] {
        try songTable().songs
    }

    /// Every song of the library with its tag columns (`SongTable`; kept like `allSongs`).
    func songTable() throws(MPDError) -> SongTable {
        if let songs = pinnedFolders?.songs { return songs }
        return try libraryCall { try librarySongs.songs.get { SongTable(try catalog.songs(under: "")) } }
    }

    /// The folders under `directory` ("" for all) that hold songs directly, `directory` itself
    /// included, as runs in path order with their songs' newest times (`Catalog.folderRuns`; kept in
    /// memory between commands: `LibrarySongs`). Compared by their bytes, as the file system does.
    func folderRuns(under directory: String) throws(MPDError) -> [(folder: String, newest: Int64)] {
        let all = try libraryCall { try librarySongs.folders.get { try catalog.folderRuns(under: "") } }
        if directory.isEmpty { return all }
        let own = Array(directory.utf8), prefix = own + [UInt8(ascii: "/")]
        return all.filter { $0.folder.utf8.elementsEqual(own) || $0.folder.utf8.starts(with: prefix) }
    }

    /// The library's counts for `stats` (kept between commands: `LibrarySongs`).
    func libraryStatistics() throws(MPDError) -> Catalog.Statistics {
        try libraryCall { try librarySongs.statistics.get { try catalog.statistics() } }
    }

    /// The library's folders as `lsinfo` lists them (kept in memory between commands: `LibrarySongs`).
    func folderTree() throws(MPDError) -> DirectoryTree.Folders {
        if let tree = pinnedFolders?.tree { return tree }
        return try libraryCall { try librarySongs.tree.get { DirectoryTree.Folders(runs: try folderRuns(under: "")) } }
    }

    /// The stored playlists and the music folder's playlist files (kept between commands: `LibrarySongs`).
    func allPlaylists() throws(MPDError) -> Catalog.AllPlaylists {
        if let playlists = pinnedFolders?.playlists { return playlists }
        return try libraryCall { try librarySongs.playlists.get { try catalog.allPlaylists() } }
    }

    /// Runs a request on the engine; the next `player()` reads the state anew.
    mutating func control(_ request: ControlRequest) throws(MPDError) -> [Int] {
        cachedPlayer = nil
        switch playerSource.control(request) {
        case .success(let ids): return ids
        case .failure(let error): throw MPDError(error)
        }
    }

    /// Starts a library update; returns the job id.
    mutating func update() -> Int {
        cachedPlayer = nil
        return playerSource.update()
    }

    /// Feeds input to the engine; the next `player()` reads the state anew.
    mutating func input(_ input: RemoteInput) {
        cachedPlayer = nil
        playerSource.input(input)
    }

    /// Playback state, read from the engine at most once per batch (anew after a control request).
    mutating func player() -> PlayerSnapshot {
        if let cachedPlayer { return cachedPlayer }
        let s = playerSource.snapshot()
        cachedPlayer = s
        return s
    }
}
