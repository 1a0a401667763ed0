import ClickWheelCore
import Foundation
public import Library
public import MPDProtocol

/// What a command handler works with: the library, playback state read once per batch, the client's
/// own state.
public struct MPDContext: MPDCommandContext {
    public var permission: MPDPermission = [.read, .add, .control, .admin, .player]
    let catalog: Catalog
    let playerSource: any PlayerStateSource
    var client: MPDClientState
    let started: Date
    private var cachedPlayer: PlayerSnapshot?

    init(catalog: Catalog, player: any PlayerStateSource, client: MPDClientState, started: Date) {
        self.catalog = catalog
        self.playerSource = player
        self.client = client
        self.started = started
    }

    /// Playback state, read from the engine at most once per batch.
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
    let player: any PlayerStateSource
    let started = Date()

    public init(catalog: Catalog, player: any PlayerStateSource) {
        self.catalog = catalog
        self.player = player
        table = MPDCommandTable(
            Self.statusCommands + Self.databaseCommands + Self.miscCommands)
    }

    public func execute(_ batch: MPDCommandBatch, client: inout MPDClientState) -> MPDBatchResult {
        var context = MPDContext(catalog: catalog, player: player, client: client, started: started)
        let result = table.execute(batch, context: &context)
        client = context.client
        return result
    }
}

/// Library errors become MPD's "system" error with the reason.
func libraryCall<T>(_ body: () throws -> T) throws(MPDError) -> T {
    do { return try body() } catch { throw MPDError.system("library: \(error)") }
}
