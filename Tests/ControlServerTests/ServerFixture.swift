import ClickWheelCore
import ClickWheelTestKit
import ControlServer
import Foundation
import GRDB
import Library
import Logging
import MPDProtocol
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

    /// The real engine over the fixture library, owned the way the service's loop owns it (one lock,
    /// effects in order), minus the audio: playback reports are sent by the test (`report`), and
    /// idle listeners hear the engine's notifications through the server.
    final class EnginePlayer: PlayerStateSource, @unchecked Sendable {
        private let lock = NSLock()
        private var engine: Engine
        private var clock = Timestamp.ms(1000)
        var server: ControlServer?
        /// Every playback command the engine gave, in order.
        private(set) var commands: [PlaybackCommand] = []

        init(volume: Int = 40) {
            var settings = Settings()
            settings.volume = volume
            engine = Engine(
                library: LibraryStore(ServerFixture.pool),
                configuration: EngineConfiguration(geometry: DisplayGeometry(columns: 20, rows: 4), charset: .utf8, version: "test"),
                settings: settings)
            carryOut(engine.handle(.tick(clock)))
        }

        private func tick() -> Timestamp {
            clock = clock.adding(ms: 10)
            return clock
        }

        private func carryOut(_ effects: [Effect]) {
            for effect in effects {
                switch effect {
                case .playback(let c): commands.append(c)
                case .notify(let s): server?.notify(MPDIdleSubsystems(s))
                case .render: server?.notify(.screen)
                default: break
                }
            }
        }

        func snapshot() -> PlayerSnapshot { lock.withLock { PlayerSnapshot(engine) } }

        func control(_ request: ControlRequest) -> Result<[Int], ControlError> {
            lock.withLock {
                let outcome = engine.control(request, at: tick())
                carryOut(outcome.effects)
                return outcome.result
            }
        }

        func input(_ input: RemoteInput) {
            lock.withLock {
                switch input {
                case .wheel(let steps): carryOut(engine.handle(.wheel(steps, at: tick())))
                case .press(let b):
                    carryOut(engine.handle(.button(b, .down, at: tick())))
                    carryOut(engine.handle(.button(b, .up, at: tick())))
                case .hold(let b, let ms):
                    carryOut(engine.handle(.button(b, .down, at: tick())))
                    for _ in 0..<(ms / 100) { carryOut(engine.handle(.tick(clock.adding(ms: 100)))); clock = clock.adding(ms: 100) }
                    carryOut(engine.handle(.button(b, .up, at: tick())))
                }
            }
        }

        func screen() -> ScreenSnapshot {
            lock.withLock {
                let p = engine.position()
                return ScreenSnapshot(rows: engine.frame?.lines ?? [], title: p.title, cursor: p.cursor, count: p.count, depth: p.depth)
            }
        }

        private var jobs = 0

        func libraryEdited(_ subsystems: MPDIdleSubsystems) {
            lock.withLock {
                carryOut(engine.handle(.libraryChanged(at: tick())))
                server?.notify(subsystems)
            }
        }

        /// The fixture library does not change: the job ends at once.
        func update() -> Int {
            lock.withLock {
                jobs += 1
                server?.notify([.update])
                return jobs
            }
        }

        /// What the audio thread would report (a track played to its end, a position).
        func report(_ report: PlaybackReport) {
            lock.withLock { carryOut(engine.handle(.playback(report, at: tick()))) }
        }

        var commandLog: [PlaybackCommand] { lock.withLock { commands } }
    }

    let dir: URL
    let socket: String
    let server: ControlServer
    let player: EnginePlayer

    /// `library`: what the control socket lists (the engine's queue and menus stay on `pool`).
    init(
        limits: ControlServer.Limits = ControlServer.Limits(), volume: Int = 40, password: String? = nil,
        library: DatabasePool = ServerFixture.pool
    ) throws {
        dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("cws-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        socket = dir.appendingPathComponent("socket").path
        player = EnginePlayer(volume: volume)
        var logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        server = ControlServer(
            backend: ControlCommands(catalog: Catalog(library), playlists: StoredPlaylists(library), player: player, musicFolder: Self.music,
                password: password), limits: limits, logger: logger)
        player.server = server
        try server.start(socketPath: socket)
    }

    deinit {
        server.stop()
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
