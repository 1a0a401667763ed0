public import ClickWheelConfig
import ClickWheelCore
import ControlServer
import Devices
import Foundation
import GRDB
import Library
public import Logging
import Playback
import Snapcast
import NIOCore
import NIOPosix
import ServiceLifecycle
import WebRemote

/// `clickwheel run`: the parts of the service, made from a configuration and run as one
/// swift-service-lifecycle `ServiceGroup` (SIGTERM and SIGINT stop it gracefully).
///
/// One concurrency rule per layer:
/// - the engine and everything it owns (the display, the playback shell, the library's stores) run on
///   the engine loop's serial queue (`EngineLoop.queue`), which its entry points assert;
/// - blocking devices (the audio thread, evdev and keyboard readers, watchers, library scans, the
///   display writers (LCDd, I2C), and the start and stop steps that open or close them) run on named threads of their
///   own, all started through `NamedThread`, never on Swift's cooperative pool;
/// - SwiftNIO runs the network parts (the control socket, the web remote, the Snapcast control
///   client) on one event loop of one thread (`NetworkService`), and nothing else; a connection's
///   commands, which may read the database, run on a serial queue of that connection's
///   (`MPDConnectionHandler`), never on the event loop;
/// - the services' `run()` are structured tasks of the group: they wait and hand work to the above.
///
/// Making the service (`init`) opens what can fail with a clear message: the library database, the
/// display and the control socket; running it starts the rest.
public final class ClickWheelService: Sendable {
    /// What the executable hands over: the configuration and where it came from.
    public struct Options: Sendable {
        public var config: ServiceConfig
        /// The configuration file read (Settings → Wheel saves into it); nil: none.
        public var configFile: String?
        /// Standard input and output are a terminal (the default display and input follow).
        public var interactive: Bool
        public var version: String
        /// Reads the configuration again, as at start (SIGHUP).
        public var reload: @Sendable () throws -> ServiceConfig

        public init(
            config: ServiceConfig, configFile: String?, interactive: Bool, version: String,
            reload: @escaping @Sendable () throws -> ServiceConfig
        ) {
            self.config = config
            self.configFile = configFile
            self.interactive = interactive
            self.version = version
            self.reload = reload
        }
    }

    /// The service could not start; `description` is the one line for stderr.
    public struct StartupFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public let logger: Logger
    /// The parts in start order: the group stops them in the reverse order, each waited for, so
    /// nothing new comes in (SIGHUP, inputs, the socket, the library) before the engine writes its
    /// last checkpoint and Goodbye, the display closes, and the audio stops.
    private let parts: [any Service]

    /// Makes the service: opens the library, the display and the control socket (blocking: call it
    /// off the cooperative pool, e.g. through `NamedThread.run`).
    public init(_ options: Options) throws(StartupFailure) {
        let c = options.config
        let useTerminal = (c.display ?? (options.interactive ? .terminal : .none)) == .terminal
        let useKeyboard = c.input.contains("keyboard")
            || ((c.input.isEmpty || c.input.contains("auto") || c.demo) && options.interactive && useTerminal)
        // On the terminal display, log lines go to a file beside the database instead of the screen.
        let logNote = useTerminal ? Self.logToFile(besides: c.db) : ""
        let logLevel = SharedLogLevel(Logger.Level(rawValue: c.logLevel) ?? .info)
        let logger = logLevel.logger("clickwheel")
        self.logger = logger

        let pool: DatabasePool
        do {
            pool = try LibraryDatabase.open(at: c.db)
        } catch {
            throw StartupFailure(description: "cannot open the library \(c.db): \(error)")
        }
        // The one event loop every network part runs on (the control socket, the web remote, the
        // Snapcast control client); a start that fails below shuts it down again.
        let network = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let eventLoop = network.next()
        var made = false
        defer { if !made { try? network.syncShutdownGracefully() } }
        let resumeStore = ResumeStore(pool)
        let stores = EngineStores(
            settings: SettingsStore(pool), resume: resumeStore, playState: PlayStateStore(pool),
            scrobbles: c.scrobbleLog.map { Self.scrobbleLog($0, c, pool: pool, version: options.version, logger: logger) })
        let lateLoop = LateLoop()
        let scanner = BackgroundScanner(folder: c.music, pool: pool, logger: logger)
        let changes = IdleListeners()
        // Podcast subscriptions: fetched and downloaded on the same event loop group, rescanned as the
        // watcher's changes are, told to `idle podcast` clients. Made before the web remote, whose Podcasts
        // panel works through it; a start that fails below shuts its HTTP client down again.
        let podcasts = PodcastService(
            store: SubscriptionStore(pool), settings: c.podcasts, music: c.music, group: network, logger: logger,
            rescan: { scanner.start() }, changed: { changes(.podcast) },
            downloads: { lateLoop.post(.podcastDownloads($0, at: MonotonicClock.now())) })
        defer { if !made { podcasts.discard() } }
        // The web remote (when configured) sees every frame the display does: it is part of the display.
        // Listening before the display opens, so the terminal can show its address.
        let web = try Self.webRemote(
            c, pool: pool, loop: lateLoop, podcasts: WebPodcastLink(control: podcasts), eventLoop: eventLoop, logger: logger)
        let webNote = web.map { " · web: " + WebRemote.url(host: $0.options.host, port: $0.port) } ?? ""
        let device: (any TextDisplay)?
        do {
            let audio = c.outputs == [.null] ? "audio: none (--output null)" : c.outputs == [.pulse] ? "audio: PulseAudio/PipeWire" : "audio: " + c.outputs.map(\.rawValue).joined(separator: " + ")
            device = try DeviceSetup.display(
                c, interactive: options.interactive, note: audio + webNote + " · q quits" + logNote, logger: logger)
        } catch {
            web?.stop()
            throw StartupFailure(description: "\(error)")
        }
        let display: (any TextDisplay)? = web.map { WebTeeDisplay(primary: device, remote: $0) } ?? device
        let library = LibraryStore(pool)
        var configuration = EngineConfiguration(
            geometry: display?.geometry ?? c.lcd, charset: display?.charset ?? .utf8, holdMS: Int64(c.holdMS),
            degreesPerStep: c.degreesPerStep, version: options.version, shuffleSeed: UInt64.random(in: 1...UInt64.max))
        configuration.podcastRefresh = true  // the podcast service always runs (`PodcastService`)
        let engine = Engine(library: library, configuration: configuration, settings: stores.settings?.load() ?? Settings())
        let reports = PlayerReportRelay()
        let player = AudioPlayer(
            output: .several(ConfiguredOutputs.descriptors(c, logger: logger)), logger: logger, reportsTo: reports.deliver)
        let outputs = ConfiguredOutputs(c, player: player)
        let shell = PlaybackShell(player: player, library: library, musicFolder: c.music, logger: logger)
        let snapcastControl = c.snapcastControlAddress.map { address in
            SnapcastControl(host: address.host, port: address.port, eventLoop: eventLoop, logger: logger) { rooms, state in
                outputs.roomsChanged(rooms, server: state)
            }
        }
        let evdev = DeviceSetup.evdev(c, logger: logger)
        let syncedFile = c.clockSyncedFile
        var wiring = EngineWiring(
            rescan: { scanner.start() }, changes: changes,
            powerCommands: [.shutDown: c.shutdownCommand, .restart: c.restartCommand],
            clockSynced: { SystemClock.isSynchronised(syncedFile: syncedFile) })
        if snapcastControl != nil { wiring.speakerCommands = { outputs.perform($0) } }
        wiring.refreshPodcasts = { try? podcasts.update(nil) }
        wiring.wheelCalibration = WheelCalibrationLink(evdev: evdev, config: c, configFile: options.configFile, logger: logger)
        let loop = EngineLoop(engine: engine, display: display, stores: stores, playback: shell, wiring: wiring, logger: logger)
        lateLoop.set(loop)
        reports.attach(loop)
        let nowPlaying = web.map { WebNowPlayingFeed(remote: $0, loop: loop, catalog: Catalog(pool), music: c.music) }

        scanner.onProgress = { count in loop.post(.scanning(count: count, at: MonotonicClock.now())) }
        scanner.onFinished = { changed in
            loop.post(.scanning(count: nil, at: MonotonicClock.now()))
            if changed { loop.post(.libraryChanged(at: MonotonicClock.now())) }
            loop.scanFinished(libraryChanged: changed)
        }
        let server: ControlServer
        do {
            server = try Self.control(
                c, pool: pool, loop: loop, outputs: outputs, podcasts: podcasts, eventLoop: eventLoop, logger: logger
            ) {
                display?.close()
            }
        } catch {
            web?.stop()
            throw error
        }
        changes.add { server.notify($0) }
        if let nowPlaying { changes.add { nowPlaying.changed($0) } }
        if let web {
            // The web remote's Podcasts panel lists the podcast service's subscriptions again on each change
            // (`new` counts indexed, unplayed episodes: a rescan or a play count changes it too).
            changes.add { if !$0.isDisjoint(with: [.podcast, .database, .sticker]) { web.podcastsChanged() } }
        }
        outputs.notify.withLock { $0 = .init { server.notify($0) } }
        if let snapcastControl {
            outputs.control.withLock { $0 = snapcastControl }
            outputs.onSpeakers.withLock { $0 = .init { loop.post(.speakers($0, at: MonotonicClock.now())) } }
            outputs.publishSpeakers()
        }

        var restore: ResumeState?
        do {
            restore = try resumeStore.load()
        } catch {
            logger.error("cannot read the resume checkpoint: \(error)")
        }
        let quit = Quit()
        // Until the reload service traps it, a hangup must not end the process.
        signal(SIGHUP, SIG_IGN)
        let onHangup: @Sendable () -> Void
        if useTerminal {
            onHangup = { quit() }  // the terminal went away
        } else {
            let reload = ConfigReload(started: c, logLevel: logLevel, loop: loop, logger: logger, read: options.reload)
            onHangup = { reload.reload(); scanner.start() }
        }
        let shown = device == nil ? "none" : (c.display ?? .terminal).rawValue
        let where_ = "database \(c.db), display \(shown)"
        parts = [
            NetworkService(group: network),
            AudioService(player: player, relay: reports),
            DisplayService(loop: loop),
            EngineService(loop: loop, restore: restore, goodbye: !useTerminal),
            LibraryService(
                scanner: scanner, watcher: try? FolderWatcher(folder: c.music, logger: logger), folder: c.music,
                logger: logger
            ) { watching in logger.info("running: music \(c.music) (\(watching)), \(where_)") },
            ControlService(server: server),
            podcasts,
            SnapcastControlService(control: snapcastControl),
            WebService(remote: web, nowPlaying: nowPlaying),
            InputService(
                keyboard: useKeyboard ? KeyboardInput(holdMS: 1000) { quit() } : nil, evdev: evdev, loop: loop,
                quit: quit, logger: logger),
            ReloadService(onHangup: onHangup),
        ]
        made = true
    }

    /// Runs every part until SIGTERM, SIGINT or a quit; returns when all of them have stopped.
    public func run() async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: parts.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("stopped")
    }

    /// The control socket (and the TCP address, when configured), listening; on failure `closeDisplay`
    /// runs and the failure says which address.
    private static func control(
        _ c: ServiceConfig, pool: DatabasePool, loop: EngineLoop, outputs: ConfiguredOutputs,
        podcasts: any PodcastControl, eventLoop: any EventLoop, logger: Logger, closeDisplay: () -> Void
    ) throws(StartupFailure) -> ControlServer {
        let commands = ControlCommands(
            catalog: Catalog(pool), playlists: StoredPlaylists(pool), player: loop, musicFolder: c.music, password: c.password,
            outputs: outputs, podcasts: podcasts)
        let server = ControlServer(backend: commands, eventLoop: eventLoop, logger: logger)
        var listening = c.socket
        do {
            try server.start(socketPath: c.socket, group: c.socketGroup)
            if let tcp = c.tcp, let colon = tcp.lastIndex(of: ":"), let port = Int(tcp[tcp.index(after: colon)...]) {
                listening = tcp
                try server.startTCP(host: String(tcp[..<colon]), port: port)
            }
        } catch {
            server.stop()
            closeDisplay()
            throw StartupFailure(description: "cannot open the control socket \(listening): \(error)")
        }
        return server
    }

    /// The scrobble log at `path`, its listens queued in the library database, on the system's clocks.
    private static func scrobbleLog(
        _ path: String, _ c: ServiceConfig, pool: DatabasePool, version: String, logger: Logger
    ) -> ScrobbleLog {
        let syncedFile = c.clockSyncedFile
        let clock = ScrobbleClock(
            isSynchronised: { SystemClock.isSynchronised(syncedFile: syncedFile) }, bootID: SystemClock.bootID(),
            bootMS: { SystemClock.bootMS() }, unixMS: { Int64(Date().timeIntervalSince1970 * 1000) })
        return ScrobbleLog(path: path, queue: ScrobbleQueue(pool), clock: clock, version: version, logger: logger)
    }

    /// Sends stderr to `clickwheel.log` beside the database; returns the note the terminal shows.
    private static func logToFile(besides db: String) -> String {
        let logPath = (db as NSString).deletingLastPathComponent + "/clickwheel.log"
        try? FileManager.default.createDirectory(
            atPath: (logPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "" }
        dup2(fd, STDERR_FILENO)
        close(fd)
        return " · log: \(logPath)"
    }
}
