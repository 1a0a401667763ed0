/// The wheel calibration as a state machine: it is fed the raw events of the wheel device (and the
/// keys of any device), says when a step has settled, and reads each step when told to finish it.
///
/// Steps: (1) one detent clockwise — for a touchpad, one full circle clockwise; (2) one full turn
/// clockwise — a second circle, which must agree with the first; (3) press Select. The kind of wheel
/// follows from the first movement: relative events make a rotary encoder, positions a touch ring.
/// A step that cannot be read is cleared and asked again; the result is there once all three are read.
/// Pure value: the caller owns it on one thread and brings the time (`isSettled(at:)`).
public struct WheelCalibration: Sendable {
    public enum Step: Int, Hashable, Sendable {
        case detent, turn, press, done
    }

    public enum Kind: Hashable, Sendable {
        case rotary
        case touchRing
    }

    /// What finishing a step found, or why it is asked again.
    public enum StepResult: Hashable, Sendable {
        case detent(RotaryCalibration.Detent)
        case turn(RotaryCalibration.Turn)
        case circle(TouchCalibration.Circle)
        case secondCircle(TouchCalibration.Circle)
        case select(key: UInt16?)
        case tryAgain(CalibrationProblem)
    }

    /// The encoder's detents per turn, when the user knows it (nil: 20 or 24, see `RotaryCalibration`).
    public var detentsPerTurn: Int?
    /// Touch ring: how many steps one turn should make (24, as an iPod: 15° per step).
    public var touchStepsPerTurn: Int
    /// A turning step has settled when this long has passed since its last movement.
    public var quietMS: Int64
    /// The press step settles this long after a key went down and up.
    public var pressQuietMS: Int64 = 300

    public private(set) var step: Step = .detent
    public private(set) var kind: Kind?
    private var events: [RawInputEvent] = []
    /// The time of the current step's last movement (or key), nil before its first.
    public private(set) var lastActivity: Timestamp?
    private var keyReleased = false
    private var detent: RotaryCalibration.Detent?
    private var turn: RotaryCalibration.Turn?
    private var circle: TouchCalibration.Circle?
    private var selectKey: UInt16?

    public init(detentsPerTurn: Int? = nil, touchStepsPerTurn: Int = 24, quietMS: Int64 = 1500) {
        precondition(detentsPerTurn.map { $0 > 0 } ?? true && touchStepsPerTurn >= 2 && touchStepsPerTurn <= 360)
        self.detentsPerTurn = detentsPerTurn
        self.touchStepsPerTurn = touchStepsPerTurn
        self.quietMS = quietMS
    }

    /// Records one raw event for the current step.
    public mutating func feed(_ event: RawInputEvent) {
        guard step != .done else { return }
        events.append(event)
        let moving: Bool
        switch (event.type, event.code) {
        case (EvdevCode.evRel, EvdevCode.relX), (EvdevCode.evRel, EvdevCode.relDial),
            (EvdevCode.evRel, EvdevCode.relWheel):
            moving = event.value != 0
            if kind == nil && moving { kind = .rotary }
        case (EvdevCode.evAbs, _):
            moving = true
            if kind == nil { kind = .touchRing }
        case (EvdevCode.evKey, _):
            moving = step == .press
            if step == .press && event.value == 0 && !Self.isTouchCode(event.code) { keyReleased = true }
        default:
            moving = false
        }
        if moving { lastActivity = event.time }
    }

    /// True when the current step had input and then none for long enough: time to finish it.
    public func isSettled(at now: Timestamp) -> Bool {
        guard let last = lastActivity, step != .done else { return false }
        if step == .press && keyReleased { return now.milliseconds(since: last) >= pressQuietMS }
        return now.milliseconds(since: last) >= quietMS
    }

    /// True when the current step has had any input (the caller's timeout waits for this).
    public var hasInput: Bool { lastActivity != nil }

    /// Reads the current step; found, moves on, else clears it to be asked again.
    public mutating func finishStep() -> StepResult {
        let result = read()
        events = []
        lastActivity = nil
        keyReleased = false
        if case .tryAgain = result {
            if step == .detent { kind = nil }
        } else {
            step = Step(rawValue: step.rawValue + 1) ?? .done
        }
        return result
    }

    private mutating func read() -> StepResult {
        switch (step, kind) {
        case (.done, _):
            return .tryAgain(.noInput)
        case (.press, _):
            switch Self.press(events) {
            case .found(let key):
                selectKey = key
                return .select(key: key)
            case .tryAgain(let p):
                return .tryAgain(p)
            }
        case (_, nil):
            return .tryAgain(.noInput)
        case (.detent, .rotary):
            switch RotaryCalibration.detent(events) {
            case .found(let d):
                detent = d
                return .detent(d)
            case .tryAgain(let p): return .tryAgain(p)
            }
        case (.turn, .rotary):
            guard let detent else { return .tryAgain(.noInput) }
            switch RotaryCalibration.turn(events, detent: detent, detentsPerTurn: detentsPerTurn) {
            case .found(let t):
                turn = t
                return .turn(t)
            case .tryAgain(let p): return .tryAgain(p)
            }
        case (.detent, .touchRing):
            switch TouchCalibration.circle(events) {
            case .found(let c):
                circle = c
                return .circle(c)
            case .tryAgain(let p): return .tryAgain(p)
            }
        case (.turn, .touchRing):
            guard let first = circle else { return .tryAgain(.noInput) }
            switch TouchCalibration.confirm(events, first: first) {
            case .found(let c):
                circle = c
                return .secondCircle(c)
            case .tryAgain(let p): return .tryAgain(p)
            }
        }
    }

    /// What all three steps found; nil until they are read.
    public var result: CalibrationResult? {
        guard step == .done else { return nil }
        if let detent, let turn {
            let bounces = detent.bounces + turn.bounces
            return CalibrationResult(
                wheel: .rotary(axis: detent.axis, stepsPerDetent: detent.stepsPerDetent, eventsPerTurn: turn.events),
                inverted: detent.clockwiseSign < 0, selectKey: selectKey,
                notes: bounces > 0 ? ["contact bounce seen (\(bounces) events taken back at once): harmless"] : [])
        }
        if let circle {
            return CalibrationResult(
                wheel: .touchRing(circle.ring, degreesPerStep: 360 / Double(touchStepsPerTurn)),
                inverted: circle.sweep < 0, selectKey: selectKey)
        }
        return nil
    }

    /// Which key was pressed for Select: a key code, or nil for a touch on the pad (the centre disc).
    public static func press(_ events: [RawInputEvent]) -> CalibrationOutcome<UInt16?> {
        var codes: [UInt16] = []
        var touched = false
        for e in events where e.type == EvdevCode.evKey {
            if isTouchCode(e.code) {
                touched = touched || e.value != 0
            } else if e.value == 1 && !codes.contains(e.code) {
                codes.append(e.code)
            }
        }
        if codes.count > 1 { return .tryAgain(.severalKeys(codes.sorted())) }
        if let code = codes.first { return .found(code) }
        return touched ? .found(nil) : .tryAgain(.noInput)
    }

    /// True for an event that moves a wheel (a relative wheel axis, or a position on a pad): the first
    /// device to send one is the wheel being calibrated.
    public static func isWheelMovement(_ e: RawInputEvent) -> Bool {
        switch (e.type, e.code) {
        case (EvdevCode.evRel, EvdevCode.relX), (EvdevCode.evRel, EvdevCode.relDial),
            (EvdevCode.evRel, EvdevCode.relWheel):
            e.value != 0
        case (EvdevCode.evAbs, EvdevCode.absX), (EvdevCode.evAbs, EvdevCode.absY),
            (EvdevCode.evAbs, EvdevCode.absMTPositionX), (EvdevCode.evAbs, EvdevCode.absMTPositionY):
            true
        default:
            false
        }
    }

    /// BTN_TOOL_* and BTN_TOUCH (0x140…0x14F): what a touchpad says about fingers, not buttons.
    static func isTouchCode(_ code: UInt16) -> Bool { (0x140...0x14F).contains(code) }
}
