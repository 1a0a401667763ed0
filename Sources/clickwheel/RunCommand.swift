import ArgumentParser
import ClickWheelConfig
import ClickWheelCore
import ControlServer
import Devices
import Foundation
import GRDB
import Library
import Logging
import Playback
import ServiceLifecycle
import Synchronization

/// `clickwheel run`: the service. Today: the library (indexed in the background), the engine with
/// every menu, the terminal display and the keyboard as the wheel, and a silent player.
///
/// Its lifecycle is a `ServiceGroup` (swift-service-lifecycle): SIGTERM and SIGINT shut it down
/// gracefully (see `ClickWheelService`); SIGHUP reloads the configuration and rescans.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run ClickWheel: browse and play the library with the wheel (here: the keyboard) on the display.",
        discussion: """
            Keys on the terminal: arrows or j/k turn the wheel, Enter = Select, Esc or Backspace = Menu, \
            space = Play/Pause, n/p = Next/Previous, h then a key (or Shift) = hold, q = quit.
            The library is indexed in the background at start; menus fill in as it goes.
            Audio goes to the PulseAudio or PipeWire server (PULSE_SERVER, or the session's); with \
            --output null nothing is heard and everything else behaves as with sound.
            """)

    @Option(help: ArgumentHelp("The configuration file (default /etc/clickwheel/clickwheel.yaml when it exists).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The music folder (env CLICKWHEEL_MUSIC; default ~/Music).", valueName: "DIR"))
    var music: String?

    @Flag(help: "Play a small generated demo library ($XDG_DATA_HOME/clickwheel/demo, made once with lame; env CLICKWHEEL_DEMO) with its own database; --music and --db are ignored. On a terminal: the terminal display and keyboard.")
    var demo = false

    @Option(help: ArgumentHelp("The library database (env CLICKWHEEL_DB).", valueName: "FILE"))
    var db: String?

    @Option(help: ArgumentHelp("The control socket (env CLICKWHEEL_SOCKET).", valueName: "PATH"))
    var socket: String?

    @OptionGroup var displayOptions: DisplayOptions

    @Option(help: ArgumentHelp("An input: auto (every evdev wheel, touchpad and button device, plus the keyboard on a terminal), keyboard, none, or a /dev/input/… path (repeatable).", valueName: "INPUT"))
    var input: [String] = []

    @Option(help: ArgumentHelp("Rotary encoder events per detent.", valueName: "1|2|4"))
    var stepsPerDetent: String?

    @Option(help: ArgumentHelp("Touch ring: degrees per wheel step.", valueName: "DEG"))
    var degreesPerStep: String?

    @Flag(help: "Clockwise moves up instead of down.")
    var invertWheel = false

    @Option(help: ArgumentHelp("Scroll acceleration.", valueName: "off|normal|fast"))
    var acceleration: String?

    @Option(help: ArgumentHelp("Audio output: the PulseAudio/PipeWire server, or none (real-time, silent).", valueName: "pulse|null"))
    var output: String?

    /// The configuration: file, environment, then these flags.
    func resolvedConfig() throws -> ServiceConfig {
        var flags: [String: String] = [:]
        let given: [(String, String?)] = [
            ("music", music), ("db", db), ("socket", socket), ("steps_per_detent", stepsPerDetent),
            ("degrees_per_step", degreesPerStep), ("acceleration", acceleration), ("output", output),
            ("input", input.isEmpty ? nil : input.joined(separator: ",")), ("invert_wheel", invertWheel ? "true" : nil),
            ("demo", demo ? "true" : nil),
        ]
        for case (let key, let value?) in given { flags[key] = value }
        flags.merge(displayOptions.flags) { a, _ in a }
        let file = config ?? (FileManager.default.fileExists(atPath: ConfigLoader.systemPath) ? ConfigLoader.systemPath : nil)
        do {
            var c = try ConfigLoader().load(file: file, flags: flags)
            // The demo on a terminal shows itself there, whatever display the configuration file names.
            if c.demo, displayOptions.display == nil, isatty(STDOUT_FILENO) == 1 { c.display = .terminal }
            return c
        } catch {
            throw ValidationError("the configuration is not valid:\n\(error)")
        }
    }

    func validate() throws {
        let c = try resolvedConfig()
        var isDir: ObjCBool = false
        guard c.demo || (FileManager.default.fileExists(atPath: c.music, isDirectory: &isDir) && isDir.boolValue) else {
            throw ValidationError("the music folder '\(c.music)' does not exist or is not a folder")
        }
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        if (c.display ?? (interactive ? .terminal : .none)) == .terminal, isatty(STDOUT_FILENO) != 1 {
            throw ValidationError("--display terminal needs a terminal on standard output")
        }
    }

    func run() async throws {
        // Starting opens the database, the display, the socket and the inputs, all of which block:
        // on a thread of its own, as stopping is.
        let service = try await onOwnThread("clickwheel.start") { Result { try self.start() } }.get()
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: service.logger))
        try await group.run()
    }

    /// Starts everything `clickwheel run` runs; `ClickWheelService` waits for the end and stops it all.
    func start() throws -> ClickWheelService {
        let c = try resolvedConfig()
        if c.demo { try DemoLibrary.prepareOrExit(folder: c.music) }
        let folder = c.music
        let dbPath = c.db
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        let useTerminal = (c.display ?? (interactive ? .terminal : .none)) == .terminal
        let useKeyboard = c.input.contains("keyboard")
            || ((c.input.isEmpty || c.input.contains("auto") || c.demo) && interactive && useTerminal)

        // The terminal shows the LCD: log lines go to a file beside the database instead of stderr.
        var logNote = ""
        if useTerminal {
            let logPath = (dbPath as NSString).deletingLastPathComponent + "/clickwheel.log"
            try? FileManager.default.createDirectory(
                atPath: (logPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let fd = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                dup2(fd, STDERR_FILENO)
                close(fd)
                logNote = " · log: \(logPath)"
            }
        }
        let logLevel = SharedLogLevel(Logger.Level(rawValue: c.logLevel) ?? .info)
        let logger = logLevel.logger("clickwheel")
        let pool: DatabasePool
        do {
            pool = try LibraryDatabase.open(at: dbPath)
        } catch {
            FileHandle.standardError.write(Data("clickwheel: cannot open the library \(dbPath): \(error)\n".utf8))
            throw ExitCode.failure
        }
        let store = LibraryStore(pool)
        let settings = SettingsStore(pool)
        let resume = ResumeStore(pool)
        let screen: (any TextDisplay)?
        do {
            let audio = c.output == .pulse ? "audio: PulseAudio/PipeWire" : "audio: none (--output null)"
            screen = try DeviceSetup.display(c, interactive: interactive, note: audio + " · q quits" + logNote, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("clickwheel: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let engine = Engine(
            library: store,
            configuration: EngineConfiguration(
                geometry: screen?.geometry ?? c.lcd, charset: screen?.charset ?? .utf8, holdMS: Int64(c.holdMS),
                degreesPerStep: c.degreesPerStep, version: ClickWheelVersion.current,
                shuffleSeed: UInt64.random(in: 1...UInt64.max)),
            settings: settings.load())

        let scanner = BackgroundScanner(folder: folder, pool: pool, logger: logger)
        let player = AudioPlayer(output: c.output == .pulse ? .pulse(server: nil) : .null, logger: logger)
        let loop = ServiceLoop(
            engine: engine, display: screen, settings: settings, resume: resume, playState: PlayStateStore(pool),
            player: player, musicFolder: folder, logger: logger
        ) {
            scanner.start()
        }
        scanner.onProgress = { count in loop.post(.scanning(count: count, at: MonotonicClock.now())) }
        scanner.onFinished = { changed in
            loop.post(.scanning(count: nil, at: MonotonicClock.now()))
            if changed { loop.post(.libraryChanged(at: MonotonicClock.now())) }
            loop.scanFinished(libraryChanged: changed)
        }
        let commands = ControlCommands(
            catalog: Catalog(pool), playlists: StoredPlaylists(pool), player: loop, musicFolder: folder, password: c.password)
        let server = ControlServer(backend: commands, logger: logger)
        var listening = c.socket
        do {
            try server.start(socketPath: c.socket, group: c.socketGroup)
            if let tcp = c.tcp, let colon = tcp.lastIndex(of: ":"), let port = Int(tcp[tcp.index(after: colon)...]) {
                listening = tcp
                try server.startTCP(host: String(tcp[..<colon]), port: port)
            }
        } catch {
            server.stop()
            screen?.close()
            FileHandle.standardError.write(Data("clickwheel: cannot open the control socket \(listening): \(error)\n".utf8))
            throw ExitCode.failure
        }
        loop.listener = { server.notify($0) }
        loop.powerCommands = [.shutDown: c.shutdownCommand, .restart: c.restartCommand]
        loop.start()
        do {
            // What played before the last stop or power cut comes back paused (tracks gone are dropped).
            if let saved = try resume.load() { loop.post(.restore(saved, at: MonotonicClock.now())) }
        } catch {
            logger.error("cannot read the resume checkpoint: \(error)")
        }
        scanner.start()
        // The library follows the music folder: a rescan 2 s after changes settle (or every 10 min).
        let watcher = try? FolderWatcher(folder: folder, logger: logger)
        var watching = "not watched"
        do {
            if let mode = try watcher?.start({ scanner.start() }) {
                switch mode {
                case .inotify(let watches): watching = "watched: \(watches) folders"
                case .periodic: watching = "checked every 10 min"
                }
            }
        } catch {
            logger.error("library: cannot watch \(folder): \(error)")
        }

        let quit = ClickWheelService.Quit()
        var keyboard: KeyboardInput?
        if useKeyboard {
            let k = KeyboardInput(holdMS: 1000) { quit() }
            try k.start { loop.post(.input($0)) }
            keyboard = k
        }
        let evdev = DeviceSetup.evdev(c, logger: logger)
        // Settings → Wheel saves into the file the configuration came from (as resolvedConfig picks it).
        let configFile = config ?? (FileManager.default.fileExists(atPath: ConfigLoader.systemPath) ? ConfigLoader.systemPath : nil)
        let wheel = WheelCalibrationLink(evdev: evdev, config: c, configFile: configFile, logger: logger)
        loop.queue.sync { loop.wheelCalibration = wheel }
        if let evdev {
            do {
                try evdev.start { loop.post(.input($0)) }
                logger.info("input: \(evdev.openDevices.isEmpty ? "no evdev device yet (watching /dev/input)" : evdev.openDevices.joined(separator: ", "))")
            } catch {
                logger.error("input: \(error)")
            }
        }
        // SIGTERM and SIGINT are the service group's; SIGHUP reloads and rescans.
        signal(SIGHUP, SIG_IGN)
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        if useTerminal {
            // On the terminal display a hangup means the terminal went away: stop, as before.
            hangup.setEventHandler { quit() }
        } else {
            hangup.setEventHandler { reload(from: c, logLevel: logLevel, loop: loop, scanner: scanner, logger: logger) }
        }
        hangup.resume()
        logger.info("running: music \(folder) (\(watching)), database \(dbPath), display \(useTerminal ? "terminal" : "none")")
        return ClickWheelService(
            loop: loop, server: server, watcher: watcher, keyboard: keyboard, evdev: evdev, goodbye: !useTerminal,
            quit: quit, hangup: hangup, logger: logger)
    }

    /// SIGHUP: reads the configuration again, applies what can change while running (one log line
    /// says what, and which changed keys wait for a restart), and rescans the library.
    func reload(from started: ServiceConfig, logLevel: SharedLogLevel, loop: ServiceLoop, scanner: BackgroundScanner,
                logger: Logger) {
        do {
            let new = try resolvedConfig()
            logLevel.value = Logger.Level(rawValue: new.logLevel) ?? .info
            loop.queue.async {
                loop.powerCommands = [.shutDown: new.shutdownCommand, .restart: new.restartCommand]
                loop.wheelCalibration?.reload(new)
            }
            let restart = ConfigReload.needingRestart(old: started, new: new)
            let waiting = restart.isEmpty ? "" : "; changed but applied only at restart: \(restart.joined(separator: ", "))"
            logger.notice("SIGHUP: configuration reloaded (applied: \(ConfigReload.applied.joined(separator: ", "))\(waiting)); rescanning the library")
        } catch {
            let oneLine = "\(error)".split(separator: "\n").joined(separator: " ")
            logger.error("SIGHUP: the configuration was not reloaded, the running one is kept: \(oneLine)")
        }
        scanner.start()
    }
}

/// Runs library scans on a thread of their own, one at a time; reports progress through callbacks.
final class BackgroundScanner: @unchecked Sendable {
    private let folder: String
    private let pool: DatabasePool
    private let logger: Logger
    /// Whether a scan runs, and whether another was asked for meanwhile (it runs right after).
    private let state = Mutex((running: false, again: false))
    var onProgress: @Sendable (Int) -> Void = { _ in }
    /// Runs after each scan, told whether the library changed (a failed scan counts as a change).
    var onFinished: @Sendable (_ changed: Bool) -> Void = { _ in }

    init(folder: String, pool: DatabasePool, logger: Logger) {
        self.folder = folder
        self.pool = pool
        self.logger = logger
    }

    /// Starts a scan; while one runs, one more is queued (any number of requests make one more scan).
    func start() {
        let already = state.withLock { s in
            defer { s.running = true }
            if s.running { s.again = true }
            return s.running
        }
        guard !already else { return }
        run()
    }

    private func run() {
        let thread = Thread { [self] in
            var changed = true
            do {
                let summary = try LibraryScanner(musicFolder: folder, database: pool, logger: logger).run { p in
                    if p.phase == .reading, p.total > 0 { self.onProgress(p.done) }
                }
                changed = summary.changed
                logger.info("library: \(summary.tracks) tracks (added \(summary.added), removed \(summary.removed), skipped \(summary.skipped))")
            } catch {
                logger.error("library scan failed: \(error)")
            }
            onFinished(changed)
            let again = state.withLock { s in
                s.running = s.again
                s.again = false
                return s.running
            }
            if again { run() }
        }
        thread.name = "clickwheel.scan"
        thread.start()
    }
}
