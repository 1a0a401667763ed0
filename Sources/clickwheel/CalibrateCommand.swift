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

    @Option(
        help: ArgumentHelp(
            "Rotary encoder: detents per full turn (default: 20 or 24); touch ring: steps per turn (default 24).",
            valueName: "N"))
    var detents: Int?

    @Option(help: ArgumentHelp("Seconds to wait for each step to start.", valueName: "S"))
    var timeout: Double = 30

    @Option(help: ArgumentHelp("Seconds of stillness that end a turning step.", valueName: "S"))
    var settle: Double = 1.5

    @Option(help: ArgumentHelp("Tries per step before giving up.", valueName: "N"))
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

        var session = Session(
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

/// The steps as events come: which device is the wheel, where a step ends, retries and the timeout.
///
/// A step ends at the first event that comes `quietMS` after its last movement by the events' own
/// times, or when nothing has come for that long on the wall clock. Keys from other devices during
/// the turning steps wait in `pendingKeys`; those after the turn's last movement open the press step.
private struct Session {
    var calibration: WheelCalibration
    let timeoutMS: Int64
    let openDevices: () -> [String]
    var wheelPath: String?
    var selectPath: String?
    var tries = 0
    var waitingSince = MonotonicClock.now()
    /// The time of the last event fed and when (wall clock) it was fed.
    var lastFed: (event: Timestamp, wall: Timestamp)?
    var pendingKeys: [(String, RawInputEvent)] = []

    mutating func take(_ event: RawInputEvent, from path: String, command: CalibrateCommand) throws {
        let step = calibration.step
        guard step != .done else { return }
        if step == .press {
            try feed(event, from: path, command: command)
            return
        }
        if wheelPath == nil && WheelCalibration.isWheelMovement(event) { wheelPath = path }
        if path == wheelPath {
            try feed(event, from: path, command: command)
        } else if event.type == EvdevCode.evKey {
            pendingKeys.append((path, event))
        }
    }

    private mutating func feed(_ event: RawInputEvent, from path: String, command: CalibrateCommand) throws {
        if calibration.hasInput && calibration.isSettled(at: event.time) { try finish(command: command) }
        guard calibration.step != .done else { return }
        if calibration.step == .press && event.type == EvdevCode.evKey && event.value == 1 && selectPath == nil
            && !(0x140...0x14F).contains(event.code)
        {
            selectPath = path
        }
        calibration.feed(event)
        lastFed = (event.time, MonotonicClock.now())
    }

    /// Ends a step that went quiet, or the command when a step never started.
    mutating func tick(command: CalibrateCommand) throws {
        let now = MonotonicClock.now()
        if calibration.hasInput, let last = lastFed,
            calibration.isSettled(at: last.event.adding(ms: now.milliseconds(since: last.wall)))
        {
            try finish(command: command)
        } else if !calibration.hasInput && now.milliseconds(since: waitingSince) >= timeoutMS {
            throw Failure.exit(
                command: "clickwheel calibrate",
                openDevices().isEmpty
                    ? "no input device to read (none fits, or no permission: run as root or in group input)"
                    : "nothing came in \(timeoutMS / 1000) s; is the service running (it holds the devices)? "
                        + "Stop it first")
        }
    }

    private mutating func finish(command: CalibrateCommand) throws {
        let ended = calibration.lastActivity
        let result = calibration.finishStep()
        command.say("     " + command.describe(result, wheelPath: wheelPath, selectPath: selectPath))
        lastFed = nil
        waitingSince = MonotonicClock.now()
        if case .tryAgain = result {
            tries += 1
            if tries >= command.attempts { throw Failure.exit(command: "clickwheel calibrate", "calibration not finished: no clear answer") }
            if calibration.step == .detent { wheelPath = nil }
        } else {
            tries = 0
        }
        guard calibration.step != .done else { return }
        command.say(command.prompt(calibration.step, kind: calibration.kind))
        if calibration.step == .press {
            let keys = pendingKeys.filter { key in ended.map { key.1.time > $0 } ?? true }
            pendingKeys = []
            for (path, event) in keys.sorted(by: { $0.1.time < $1.1.time }) {
                try feed(event, from: path, command: command)
            }
        }
    }
}

/// Event names through the Devices module (which owns the libevdev wrapper).
private enum InputDevicesNames {
    static func code(type: UInt16, code: UInt16) -> String { InputDebugger.codeName(type: type, code: code) }
}

/// Raw events from the reader threads, taken by the command's thread.
private final class EventQueue: Sendable {
    private let items = Mutex<[(String, RawInputEvent)]>([])

    func push(_ path: String, _ event: RawInputEvent) { items.withLock { $0.append((path, event)) } }

    func drain() -> [(String, RawInputEvent)] {
        items.withLock { q in
            defer { q = [] }
            return q
        }
    }
}
