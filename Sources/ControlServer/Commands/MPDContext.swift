import ClickWheelCore
import Foundation
public import Library
public import MPDProtocol

/// What a command handler works with: the library, playback state read once per batch, the client's
/// own state.
public struct MPDContext: MPDCommandContext {
    public var permission: MPDPermission { client.permission }
    let catalog: Catalog
    let playlists: StoredPlaylists
    let playerSource: any PlayerStateSource
    let musicFolder: String
    let password: String?
    var client: MPDClientState
    let started: Date
    private var cachedPlayer: PlayerSnapshot?

    init(
        catalog: Catalog, playlists: StoredPlaylists, player: any PlayerStateSource, musicFolder: String,
        password: String?, client: MPDClientState, started: Date
    ) {
        self.password = password
        self.musicFolder = musicFolder
        self.catalog = catalog
        self.playlists = playlists
        self.playerSource = player
        self.client = client
        self.started = started
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

    /// The entry that plays after `current` ends (MPD's `nextsong`): the next one, the first with
    /// repeat, the same with single and repeat, none with single alone.
    func nextPosition(after current: Int, in p: PlayerSnapshot) -> Int? {
        if p.single != .off { return p.repeatOn && !p.consume ? current : nil }
        if current + 1 < p.queue.count { return current + 1 }
        return p.repeatOn && p.queue.count > 1 ? 0 : nil
    }

    /// Playback state, read from the engine at most once per batch (anew after a control request).
    mutating func player() -> PlayerSnapshot {
        if let cachedPlayer { return cachedPlayer }
        let s = playerSource.snapshot()
        cachedPlayer = s
        return s
    }
}

/// The command backend the server runs batches on: the table of every command this build has.
///
/// Thread rules: `execute` on the server's command queue (any thread but the engine's).
public final class ControlCommands: Sendable {
    let table: MPDCommandTable<MPDContext>
    let catalog: Catalog
    let playlists: StoredPlaylists
    let player: any PlayerStateSource
    let musicFolder: String
    let password: String?
    let started = Date()

    /// `password`: when set, a client may only read until it sends it (MPD's `password` and
    /// `default_permissions "read"`).
    public init(
        catalog: Catalog, playlists: StoredPlaylists, player: any PlayerStateSource, musicFolder: String,
        password: String? = nil
    ) {
        self.password = password
        self.musicFolder = musicFolder
        self.catalog = catalog
        self.playlists = playlists
        self.player = player
        table = MPDCommandTable(
            Self.statusCommands + Self.databaseCommands + Self.miscCommands + Self.playbackCommands
                + Self.queueCommands + Self.extensionCommands + Self.playlistCommands + Self.artworkCommands + Self.fileCommands)
    }

    /// A new client's state: every tag type, and every permission unless a password is set.
    public func newClient() -> MPDClientState {
        var c = MPDClientState(tagTypes: Set(MPDTag.tagtypes.map(\.name)))
        if password != nil { c.permission = .read }
        return c
    }

    public func execute(_ batch: MPDCommandBatch, client: inout MPDClientState) -> MPDBatchResult {
        var context = MPDContext(
            catalog: catalog, playlists: playlists, player: player, musicFolder: musicFolder, password: password,
            client: client, started: started)
        let result = table.execute(batch, context: &context)
        client = context.client
        return result
    }
}

extension MPDError {
    /// The engine's refusal as MPD words it.
    init(_ error: ControlError) {
        switch error {
        case .badSongIndex: self = .argument("Bad song index")
        case .noSuchSong: self = .noExist("No such song")
        case .notPlaying: self = .playerSync("Not playing")
        case .noCurrentSong: self = .playerSync("No current song")
        case .positionTooLarge(let n): self = .argument("Number too large: \(n)")
        case .queueTooLarge: self = MPDError(.playlistMax, "Playlist is too large")
        }
    }
}

/// Library errors become MPD's "system" error with the reason; stored-playlist refusals MPD's own.
func libraryCall<T>(_ body: () throws -> T) throws(MPDError) -> T {
    do {
        return try body()
    } catch let error as StoredPlaylists.Failure {
        switch error {
        case .badName: throw .argument("Bad playlist name")
        case .noSuchPlaylist: throw .noExist("No such playlist")
        case .exists: throw .exist("Playlist already exists")
        case .badIndex: throw .argument("Bad song index")
        case .readOnly: throw MPDError(.permission, "Read-only playlist (a file in the music folder)")
        }
    } catch {
        throw MPDError.system("library: \(error)")
    }
}
