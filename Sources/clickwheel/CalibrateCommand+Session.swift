import ArgumentParser
import ClickWheelConfig
import ClickWheelCore
import Devices
import Foundation
import NamedThreads
import Synchronization

/// The steps as events come: which device is the wheel, where a step ends, retries and the timeout.
///
/// A step ends at the first event that comes `quietMS` after its last movement by the events' own
/// times, or when nothing has come for that long on the wall clock. Keys from other devices during
/// the turning steps wait in `pendingKeys`; those after the turn's last movement open the press step.
struct CalibrationSession {
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
enum InputDevicesNames {
    static func code(type: UInt16, code: UInt16) -> String { InputDebugger.codeName(type: type, code: code) }
}

/// Raw events from the reader threads, taken by the command's thread.
///
/// `Locked` rather than a `Mutex`: the readers and the command contend for it by design, and the Thread
/// Sanitizer sees only a pthread mutex's hand-off (see `Locked`).
final class EventQueue: Sendable {
    private let items = Locked<[(String, RawInputEvent)]>([])

    func push(_ path: String, _ event: RawInputEvent) { items.withLock { $0.append((path, event)) } }

    func drain() -> [(String, RawInputEvent)] {
        items.withLock { items in
            defer { items = [] }
            return items
        }
    }
}
