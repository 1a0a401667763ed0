import ClickWheelCore
import ClickWheelService
import ClickWheelTestKit
import ControlServer
import Devices
import Foundation
import GRDB
import Library
import Logging
import MPDProtocol
import NIOPosix
import Playback
import Synchronization
import Testing

/// A control server on a temporary socket over the indexed fixture library, with a fixed player state.
final class ServerFixture: @unchecked Sendable {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let music = root.appendingPathComponent("Tests/LibraryTests/Fixtures/music").path

    /// The fixture library, indexed once per test process.
    static let pool: DatabasePool = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cw-server-lib-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pool = try! LibraryDatabase.open(at: dir.appendingPathComponent("lib.sqlite").path)
        var quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        _ = try! LibraryScanner(musicFolder: music, database: pool, logger: quiet).run()
        return pool
    }()

    /// The playback port of a test's engine loop: it records the engine's commands instead of playing,
    /// and the test sends what the audio thread would report (`ServerFixture.report`).
    final class RecordingPlayback: PlaybackPort, Sendable {
        private let log = Mutex<[PlaybackCommand]>([])

        func perform(_ command: PlaybackCommand, following: (Int) -> Int?) { log.withLock { $0.append(command) } }
        func translate(_ event: PlayerEvent) -> PlaybackReport? { nil }
        func setSoundCheck(_ on: Bool, album: Bool) {}
        func click(volume: Int) {}

        /// Every playback command the engine gave, in order.
        var commands: [PlaybackCommand] { log.withLock { $0 } }
    }

    /// The service's own engine loop over the fixture library, with a recording playback port and no
    /// stores (nothing a test does is kept); a library update ends at once (the fixture never changes).
    /// The loop a scan request answers at once (no library scan here): set once the loop is made.
    final class LoopBox: @unchecked Sendable {  // written once, before the loop starts
        weak var loop: EngineLoop?
    }

    static func makeLoop(volume: Int = 40, changes: IdleListeners = IdleListeners(), stored: Settings = Settings()) -> (
        loop: EngineLoop, playback: RecordingPlayback
    ) {
        var settings = stored
        settings.volume = volume
        let engine = Engine(
            library: LibraryStore(ServerFixture.pool),
            configuration: EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4), charset: .utf8, version: "test"),
            settings: settings)
        let playback = RecordingPlayback()
        var quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        let box = LoopBox()
        let wiring = EngineWiring(rescan: { box.loop?.scanFinished(libraryChanged: false) }, changes: changes)
        let loop = EngineLoop(
            engine: engine, display: nil, stores: EngineStores(), playback: playback, wiring: wiring, logger: quiet)
        box.loop = loop
        return (loop, playback)
    }

    let dir: URL
    let socket: String
    let server: ControlServer
    let loop: EngineLoop
    let playback: RecordingPlayback

    /// `library`: what the control socket lists (the engine's queue and menus stay on `pool`).
    init(
        limits: ControlServer.Limits = ControlServer.Limits(), volume: Int = 40, password: String? = nil,
        library: DatabasePool = ServerFixture.pool, releaseMemory: @escaping @Sendable () -> Void = {},
        releaseInterval: Double = 60
    ) throws {
        dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cws-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        socket = dir.appendingPathComponent("socket").path
        let changes = IdleListeners()
        (loop, playback) = Self.makeLoop(volume: volume, changes: changes)
        var logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        server = ControlServer(
            backend: ControlCommands(catalog: Catalog(library), playlists: StoredPlaylists(library), player: loop, musicFolder: Self.music,
                password: password), eventLoop: MultiThreadedEventLoopGroup.singleton.next(), limits: limits, logger: logger, releaseMemory: releaseMemory,
            releaseInterval: releaseInterval)
        let server = self.server
        changes.add { server.notify($0) }
        loop.start()
        try server.start(socketPath: socket)
    }

    /// What the audio thread would report (a track played to its end, a position), handled before this returns.
    func report(_ report: PlaybackReport) {
        loop.send(.playback(report, at: MonotonicClock.now()))
    }

    deinit {
        server.stop()
        loop.shutdown(goodbye: false)
        try? FileManager.default.removeItem(at: dir)
    }

    /// A library of copies of one fixture song at `paths` under `dir/music`, indexed into `dir/lib.sqlite`
    /// (for tests that then change its rows).
    static func indexedCopies(at paths: [String], in dir: URL) throws -> (music: URL, pool: DatabasePool) {
        let music = dir.appendingPathComponent("music")
        let source = Self.music + "/Durations/01 CBR Info.mp3"
        for path in paths {
            let url = music.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: url.path)
        }
        let pool = try LibraryDatabase.open(at: dir.appendingPathComponent("lib.sqlite").path)
        var quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        _ = try LibraryScanner(musicFolder: music.path, database: pool, logger: quiet).run()
        return (music, pool)
    }

    /// Runs a program (mpc, python3) and returns its standard output; fails the test on a non-zero exit.
    func run(_ program: String, _ args: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try ChildProcess.run(program, args)
        #expect(r.status == 0, "\(program) \(args): \(r.stderr)", sourceLocation: sourceLocation)
        return r.stdout
    }
}
