/// Settings → Wheel: the guided calibration on the device's own screen, over `WheelCalibration`.
///
/// While measuring, the shell forwards the input devices' raw events (`Effect.rawInput(on:)`,
/// `Event.rawInput`); the decoded steps and presses of the same hardware still arrive and are known by
/// their times (the reader stamps a raw event and what it decodes to alike), so they are dropped. A
/// decoded step or Select press that no raw event explains came from elsewhere (the control socket's
/// `wheel`/`press`, a keyboard): it cannot be measured, so the screen says to use the wheel itself.
/// Menu cancels at any point and nothing changes; the findings go out only on Save
/// (`Effect.saveWheel`), and the shell answers with `Event.wheelSaved`.
///
/// Timings: a step waits `startTimeoutMS` for its first movement (then the flow ends: nothing
/// changed); a turning step ends `WheelCalibration.quietMS` after the last movement, or at once when
/// a key goes down after it; a step that cannot be read shows its reason for `noticeMS` and is asked
/// again, as often as needed. The summary waits for Save or Cancel as a confirmation menu does.
/// Pure value, owned by the engine.
public struct WheelSetup: Sendable {
    public enum Phase: Hashable, Sendable {
        /// Reading the wheel: `calibration.step` says which step.
        case measuring
        /// What was found, with Save (`saveSelected`) or Cancel under the cursor.
        case summary(CalibrationResult, saveSelected: Bool)
        /// Save was chosen; waiting for the shell's `Event.wheelSaved`.
        case saving(CalibrationResult)
        /// The last message (saved, not saved, cancelled) until `until` or the next press.
        case finished(lines: [String])
    }

    /// How long a step waits for its first movement before the flow gives up, milliseconds.
    public static let startTimeoutMS: Int64 = 30_000
    /// How long a reason ("went both ways") or a hint ("use the wheel itself") shows, milliseconds.
    public static let noticeMS: Int64 = 2500
    /// How long the last message shows (any press dismisses it sooner), milliseconds.
    public static let finishedMS: Int64 = 3000

    public private(set) var phase: Phase = .measuring
    public private(set) var calibration: WheelCalibration
    /// The device that moved first: the wheel; the turning steps read only its events.
    public private(set) var wheelDevice: String?
    /// A short message over the prompt (a reason or a hint), until `noticeUntil`.
    public private(set) var notice: [String]?
    var noticeUntil: Timestamp?
    /// When the current step began waiting (for `startTimeoutMS`), or when the last message shows until.
    var waitingSince: Timestamp
    var finishedUntil: Timestamp?
    /// The distinct times of the latest raw events: decoded input stamped with one of them is their echo.
    private var recentRawTimes: [Timestamp] = []

    public init(at now: Timestamp, calibration: WheelCalibration = WheelCalibration()) {
        self.calibration = calibration
        waitingSince = now
    }

    /// True while the shell should forward raw events.
    public var isMeasuring: Bool { phase == .measuring }

    /// True while time changes something: steps settle and time out, notices and the last message
    /// run out. The summary and Saving… wait for input or the shell's answer alone.
    var wantsTicks: Bool {
        switch phase {
        case .measuring, .finished: true
        case .summary, .saving: false
        }
    }

    /// True when `time` is that of a raw event seen lately: decoded input from the same hardware.
    func isEcho(_ time: Timestamp) -> Bool { recentRawTimes.contains(time) }

    /// What a raw event or a tick did to the flow.
    enum Change: Equatable {
        case none
        /// All three steps read: the summary is up (raw events are no longer needed).
        case measured
        /// No movement came in time: the flow ended (raw events are no longer needed).
        case timedOut
    }

    /// Takes one raw event from `device` at its own time.
    mutating func take(_ event: RawInputEvent, from device: String) -> Change {
        if recentRawTimes.last != event.time {
            recentRawTimes.append(event.time)
            if recentRawTimes.count > 64 { recentRawTimes.removeFirst(recentRawTimes.count - 64) }
        }
        guard phase == .measuring else { return .none }
        var change = Change.none
        // A step that went quiet ends before the next event counts (a late event opens the next step).
        if calibration.hasInput && calibration.isSettled(at: event.time) { change = finishStep(at: event.time) }
        guard phase == .measuring else { return change }
        switch calibration.step {
        case .detent, .turn:
            if wheelDevice == nil && WheelCalibration.isWheelMovement(event) { wheelDevice = device }
            let keyDown =
                event.type == EvdevCode.evKey && event.value == 1 && !WheelCalibration.isTouchCode(event.code)
            if keyDown {
                // A press after turning ends the turn at once; if it opened the press step, it counts there.
                guard calibration.hasInput else { return change }
                change = finishStep(at: event.time)
                if phase == .measuring && calibration.step == .press { calibration.feed(event) }
            } else if device == wheelDevice {
                calibration.feed(event)
            }
        case .press:
            calibration.feed(event)
        case .done:
            break
        }
        return change
    }

    /// Time passes: ends a step that went quiet, the flow when nothing came, notices that ran out.
    mutating func tick(at now: Timestamp) -> Change {
        if let until = noticeUntil, now >= until {
            notice = nil
            noticeUntil = nil
        }
        switch phase {
        case .measuring:
            if calibration.hasInput {
                return calibration.isSettled(at: now) ? finishStep(at: now) : .none
            }
            if now.milliseconds(since: waitingSince) >= Self.startTimeoutMS {
                finish(["No wheel input", "Nothing changed"], at: now)
                return .timedOut
            }
            return .none
        case .finished:
            return .none
        case .summary, .saving:
            return .none
        }
    }

    /// True when the last message has been shown long enough.
    func isOver(at now: Timestamp) -> Bool {
        if case .finished = phase, let until = finishedUntil { return now >= until }
        return false
    }

    /// Reads the current step; a reason shows when it is asked again.
    private mutating func finishStep(at now: Timestamp) -> Change {
        let result = calibration.finishStep()
        waitingSince = now
        if case .tryAgain(let problem) = result {
            if calibration.step == .detent { wheelDevice = nil }
            show(Self.lines(for: problem), at: now)
            return .none
        }
        notice = nil
        noticeUntil = nil
        guard let found = calibration.result else { return .none }
        phase = .summary(found, saveSelected: true)
        return .measured
    }

    /// Shows `lines` over the prompt for `noticeMS`.
    mutating func show(_ lines: [String], at now: Timestamp) {
        notice = lines
        noticeUntil = now.adding(ms: Self.noticeMS)
    }

    /// The summary's cursor moves between Save and Cancel.
    mutating func moveChoice(by steps: Int) -> Bool {
        guard case .summary(let result, let save) = phase, steps != 0 else { return false }
        let new = steps < 0
        guard new != save else { return false }
        phase = .summary(result, saveSelected: new)
        return true
    }

    /// Save was chosen.
    mutating func saving(_ result: CalibrationResult) {
        phase = .saving(result)
    }

    /// Ends the flow with a last message.
    mutating func finish(_ lines: [String], at now: Timestamp) {
        phase = .finished(lines: lines)
        notice = nil
        noticeUntil = nil
        finishedUntil = now.adding(ms: Self.finishedMS)
    }
}

/// How the shell carried out `Effect.saveWheel`.
public enum WheelSaveOutcome: Hashable, Sendable {
    /// Written into the configuration file and applied to the running decoders.
    case saved
    /// Applied to the running decoders, but there is no configuration file to write to.
    case noConfigFile
    /// Applied to the running decoders, but the file could not be written (read-only, not valid YAML, …).
    case notWritten
}
