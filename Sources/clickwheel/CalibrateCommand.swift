import ArgumentParser
import ClickWheelConfig
import ClickWheelCore
import Devices
import Foundation
import Synchronization

/// `clickwheel calibrate`: asks for one detent (a circle on a touchpad), one full turn and a press of
/// Select, reads the raw events with `WheelCalibration`, prints what it found and, with `--write`,
/// sets the keys in the configuration file (comments and other keys kept).
///
/// Reads the devices through the same `EvdevInput` as the service, without grabbing them; a running
/// service holds its devices grabbed, so it must be stopped first. Runs on the main thread; the
/// observer only queues raw events from the reader threads.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure the wheel (steps per detent, direction, touch-ring geometry) and the Select key.",
        discussion: """
            Stop the service first (it holds the devices), or use Settings → Wheel on the running \
            service, which asks the same on the LCD. Three steps: turn one detent clockwise (on a \
            touchpad: draw one full circle clockwise), one full turn clockwise (touchpad: the circle \
            again), press Select. A step that cannot be read is asked again. With --write the keys \
            steps_per_detent or touch_ring and degrees_per_step, invert_wheel and select_key are set in \
            the configuration file; its comments and other keys are kept.
            """)

    @Option(help: ArgumentHelp("The configuration file (default /etc/clickwheel/clickwheel.yaml).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The wheel's device node (default: every input device).", valueName: "DEVICE"))
    var input: String?

    @Flag(help: "Write the result into the configuration file.")
    var write = false

    // The numeric options take the next word even when it starts with a dash, so `--timeout -1` gets
    // validate()'s range message rather than "Missing value".
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rotary encoder: detents per full turn (default: 20 or 24); touch ring: steps per turn (default 24).",
            valueName: "N"))
    var detents: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for each step to start.", valueName: "S"))
    var timeout: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds of stillness that end a turning step.", valueName: "S"))
    var settle: Double = 1.5

    @Option(parsing: .unconditional, help: ArgumentHelp("Tries per step before giving up.", valueName: "N"))
    var attempts: Int = 3

    @Option(help: .hidden)
    var inputDirectory = "/dev/input"

    func validate() throws {
        if let d = detents, !(2...360).contains(d) { throw ValidationError("--detents must be 2–360") }
        guard timeout > 0, settle > 0, attempts > 0 else {
            throw ValidationError("--timeout, --settle and --attempts must be positive")
        }
    }

    func run() throws {
        let (loaded, readFrom) = try Failure.configuration(explicit: config)
        // --write sets the keys in the file read, or makes the system's when there was none.
        let file = readFrom ?? ConfigLoader.systemPath
        let paths = input.map { [$0] } ?? loaded.input.filter { $0.hasPrefix("/dev/input/") }
        var profile = EvdevProfile(grab: false)
        if let key = loaded.selectKey { profile.buttons[key] = .select }
        let queue = EventQueue()
        let evdev = EvdevInput(
            configuration: .init(directory: inputDirectory, only: paths.map { .path($0) }, profiles: [profile]),
            logger: Logging.make("clickwheel.calibrate", level: .warning),
            observer: { o in
                // The kernel's own times: one clock for all devices (CLOCK_MONOTONIC on a Pi, the trace's
                // under umockdev), so steps split where the events pause even when they arrive in a burst.
                let time = Timestamp(microseconds: o.event.timeMicroseconds)
                queue.push(
                    o.path, RawInputEvent(time: time, type: o.event.type, code: o.event.code, value: o.event.value))
            })
        try evdev.start { _ in }
        defer { evdev.stop() }
        say(
            evdev.openDevices.isEmpty
                ? "no input device yet; waiting" : "reading " + evdev.openDevices.joined(separator: ", "))

        var session = CalibrationSession(
            calibration: WheelCalibration(
                detentsPerTurn: detents, touchStepsPerTurn: detents ?? 24, quietMS: Int64(settle * 1000)),
            timeoutMS: Int64(timeout * 1000), openDevices: { evdev.openDevices })
        say(prompt(.detent, kind: nil))
        while session.calibration.step != .done {
            for (path, event) in queue.drain() { try session.take(event, from: path, command: self) }
            try session.tick(command: self)
            if session.calibration.step != .done { Thread.sleep(forTimeInterval: 0.02) }
        }
        let calibration = session.calibration
        let wheelPath = session.wheelPath
        guard let result = calibration.result else { throw Failure.exit(command: "clickwheel calibrate", "calibration not finished") }
        let settings = CalibrationSettings.settings(for: result, keyName: Self.keyName)
        say("")
        say("calibration of \(wheelPath ?? "the wheel"):")
        for s in settings { say("  \(s.key): \(s.value)" + (s.comment.map { "    # \($0)" } ?? "")) }
        for note in result.notes { say("note: \(note)") }
        guard write else {
            say("not written; run again with --write to set these in \(file)")
            return
        }
        do {
            try CalibrationSettings.write(result, toFile: file, keyName: Self.keyName)
        } catch {
            throw Failure.exit(command: "clickwheel calibrate", "cannot update \(file): \(error)")
        }
        say("wrote \(file) (\(settings.map(\.key).joined(separator: ", ")))")
    }

    func prompt(_ step: WheelCalibration.Step, kind: WheelCalibration.Kind?) -> String {
        switch (step, kind) {
        case (.detent, _):
            "1/3  Turn the wheel exactly one detent clockwise (touchpad: draw one full circle clockwise)."
        case (.turn, .touchRing):
            "2/3  Draw the same circle clockwise once more."
        case (.turn, _):
            "2/3  Turn the wheel one full turn clockwise" + (detents.map { " (\($0) detents)." } ?? ".")
        case (.press, .touchRing):
            "3/3  Press the Select button (or click the pad, or tap its centre)."
        case (.press, _), (.done, _):
            "3/3  Press the Select button."
        }
    }

    func describe(_ r: WheelCalibration.StepResult, wheelPath: String?, selectPath: String?) -> String {
        switch r {
        case .detent(let d):
            let axis = InputDevicesNames.code(type: EvdevCode.evRel, code: d.axis)
            return "one detent: \(d.stepsPerDetent) event\(d.stepsPerDetent == 1 ? "" : "s") on \(axis) of "
                + "\(wheelPath ?? "?"), clockwise counts \(d.clockwiseSign > 0 ? "up" : "down")"
        case .turn(let t):
            return "one turn: \(t.events) events = \(t.detents) detents: confirmed"
        case .circle(let c):
            return "circle: \(Self.ringText(c.ring)) on \(wheelPath ?? "?"), clockwise is "
                + (c.sweep > 0 ? "positive" : "negative")
        case .secondCircle(let c):
            return "second circle agrees: \(Self.ringText(c.ring)) (both circles)"
        case .select(let key?):
            return
                "select: \(InputDevicesNames.code(type: EvdevCode.evKey, code: key)) (\(key)) on \(selectPath ?? "?")"
        case .select(nil):
            return "select: a touch on the pad (the centre disc); no key to set"
        case .tryAgain(let problem):
            return "not sure: \(problem)"
        }
    }

    static func ringText(_ r: TouchRingDecoder.Ring) -> String {
        let units = CalibrationSettings.units
        return "centre \(units(r.centerX)),\(units(r.centerY)) radius \(units(r.radius))"
    }

    /// A key code's name for the comment of `select_key` (KEY_ENTER).
    static func keyName(_ code: UInt16) -> String { InputDevicesNames.code(type: EvdevCode.evKey, code: code) }

    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
