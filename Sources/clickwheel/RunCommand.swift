import ArgumentParser
import ClickWheelConfig
import ClickWheelService
import Foundation
import NamedThreads

/// `clickwheel run`: options, then the configuration (file, environment, flags), then the service
/// (`ClickWheelService`: the library, the engine, the display, inputs, audio and the control socket,
/// run as one swift-service-lifecycle group; SIGTERM and SIGINT stop it, SIGHUP reloads).
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

    // Numeric options take the next word even when it starts with a dash (`-2` gets the range message).
    @Option(parsing: .unconditional, help: ArgumentHelp("Rotary encoder events per detent.", valueName: "1|2|4"))
    var stepsPerDetent: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Touch ring: degrees per wheel step.", valueName: "DEG"))
    var degreesPerStep: String?

    @Flag(help: "Clockwise moves up instead of down.")
    var invertWheel = false

    @Option(help: ArgumentHelp("Scroll acceleration.", valueName: "off|normal|fast"))
    var acceleration: String?

    @Option(
        help: ArgumentHelp(
            "Audio outputs, comma-separated, each fed the same audio: the PulseAudio/PipeWire server, none (real-time, silent), a Snapcast server (see --snapcast).",
            valueName: "pulse|null|snapcast,…"))
    var output: String?

    @Option(help: ArgumentHelp("The snapserver source the snapcast output feeds (44100:16:2).", valueName: "tcp://HOST:PORT|pipe:///PATH"))
    var snapcast: String?

    @Option(help: ArgumentHelp("Snapserver's JSON-RPC control port for Main menu → Speakers (default: port 1705 on the --snapcast host when the snapcast output is on).", valueName: "HOST:PORT|off"))
    var snapcastControl: String?

    @Option(help: ArgumentHelp("Serve the web remote (the device in a browser) on HOST:PORT (env CLICKWHEEL_WEB; off by default, --demo: 127.0.0.1:8080). Any address but loopback needs the password key.", valueName: "HOST:PORT"))
    var web: String?

    /// The configuration: file, environment, then these flags.
    func resolvedConfig() throws -> ServiceConfig {
        var flags: [String: String] = [:]
        let given: [(String, String?)] = [
            ("music", music), ("db", db), ("socket", socket), ("steps_per_detent", stepsPerDetent),
            ("degrees_per_step", degreesPerStep), ("acceleration", acceleration), ("output", output),
            ("snapcast", snapcast), ("snapcast_control", snapcastControl),
            ("input", input.isEmpty ? nil : input.joined(separator: ",")), ("invert_wheel", invertWheel ? "true" : nil),
            ("demo", demo ? "true" : nil), ("web", web),
        ]
        for case (let key, let value?) in given { flags[key] = value }
        flags.merge(displayOptions.flags) { a, _ in a }
        var c = try Failure.configuration(explicit: config, flags: flags).config
        // The demo on a terminal shows itself there, whatever display the configuration file names.
        if c.demo, displayOptions.display == nil, isatty(STDOUT_FILENO) == 1 { c.display = .terminal }
        // The demo is also the device in a browser (the next free port of 8080…8089).
        if c.demo, c.web == nil { c.web = Self.demoWeb }
        return c
    }

    func validate() throws {
        let c = try resolvedConfig()
        var isDir: ObjCBool = false
        guard c.demo || (FileManager.default.fileExists(atPath: c.music, isDirectory: &isDir) && isDir.boolValue) else {
            throw ValidationError("the music folder '\(c.music)' does not exist or is not a folder")
        }
        if (c.display ?? (Self.interactive ? .terminal : .none)) == .terminal, isatty(STDOUT_FILENO) != 1 {
            throw ValidationError("--display terminal needs a terminal on standard output")
        }
    }

    func run() async throws {
        // First, before the service's threads allocate.
        ClickWheelService.limitMallocArenas()
        let c = try resolvedConfig()
        if c.demo { try DemoLibrary.prepareOrExit(folder: c.music) }
        let options = ClickWheelService.Options(
            config: c, configFile: ConfigLoader.file(explicit: config), interactive: Self.interactive,
            version: ClickWheelVersion.current, reload: { [self] in try resolvedConfig() })
        // Making the service opens the database, the display and the socket, which block.
        let made = await NamedThread.run("cw-start") { Result { () throws(ClickWheelService.StartupFailure) in try ClickWheelService(options) } }
        switch made {
        case .success(let service): try await service.run()
        case .failure(let failure): throw Failure.exit(failure.description)
        }
    }

    static let demoWeb = "127.0.0.1:8080"

    /// Standard input and output are both a terminal.
    static var interactive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }
}
