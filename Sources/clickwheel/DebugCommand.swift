import ArgumentParser
import ClickWheelConfig
import ClickWheelCore
import ClickWheelService
import Devices
import Foundation
import Logging

/// `clickwheel debug input|lcd`: harnesses that drive one real device, for checking a Pi by hand.
struct DebugCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Hardware harnesses: watch an input device's events and gestures, or test a display.",
        subcommands: [DebugInput.self, DebugLCD.self])
}

/// `clickwheel debug input [DEVICE]`: prints raw events and what they decode to, live, until Ctrl-C.
struct DebugInput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "input",
        abstract: "Print every event of the input devices (or DEVICE) with the wheel steps and gestures it makes.")

    @Argument(help: "A device node such as /dev/input/event0 (default: every wheel, touchpad and button device).")
    var device: String?

    // Numeric options take the next word even when it starts with a dash (`-2` gets the range message).
    @Option(parsing: .unconditional, help: ArgumentHelp("Rotary encoder events per detent.", valueName: "1|2|4"))
    var stepsPerDetent: Int = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Touch ring: degrees per wheel step.", valueName: "DEG"))
    var degreesPerStep: Double = 15

    @Flag(help: "Also print the SYN_REPORT lines.")
    var sync = false

    func validate() throws {
        guard [1, 2, 4].contains(stepsPerDetent) else { throw ValidationError("--steps-per-detent must be 1, 2 or 4") }
        // The range the configuration file's degrees_per_step takes.
        guard (1...180).contains(degreesPerStep) else { throw ValidationError("--degrees-per-step must be 1–180") }
    }

    func run() throws {
        let nodes = device.map { [$0] } ?? InputDebugger.nodes()
        for line in InputDebugger.describe(paths: nodes) { print(line) }
        let profile = EvdevProfile(stepsPerDetent: stepsPerDetent, degreesPerStep: degreesPerStep)
        let debugger = InputDebugger(
            configuration: .init(only: device.map { [.path($0)] } ?? [], profiles: [profile]), showSync: sync
        ) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        try debugger.start()
        print("reading; Ctrl-C stops")
        let done = DispatchSemaphore(value: 0)
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { done.signal() }
        source.resume()
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut { debugger.tick() }
        debugger.stop()
    }
}

/// `clickwheel debug lcd`: a test pattern, every custom glyph and a scrolling line on the configured display.
struct DebugLCD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lcd", abstract: "Show a test pattern, all custom glyphs and a scrolling line on the display.")

    @Option(help: ArgumentHelp("The configuration file.", valueName: "FILE"))
    var config: String?

    @OptionGroup var displayOptions: DisplayOptions

    func run() throws {
        let c = try Failure.configuration(explicit: config, flags: displayOptions.flags).config
        let logger = Logging.make("clickwheel.debug")
        let interactive = isatty(STDOUT_FILENO) == 1
        guard let screen = try DeviceSetup.display(c, interactive: interactive, note: "debug lcd", logger: logger) else {
            throw ValidationError("no display configured (--display terminal|lcdproc|hd44780)")
        }
        defer { screen.close() }
        try LCDTestPattern.run(on: screen) { note in
            if c.display != .terminal && !(c.display == nil && interactive) { print(note) }
        }
    }
}
