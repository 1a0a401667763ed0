/// Why a calibration step could not be read, said so that the user knows what to do next.
///
/// Every case means "not sure: try the step again"; none is a bug. The descriptions are the lines
/// `clickwheel calibrate` prints.
public enum CalibrationProblem: Hashable, Sendable, CustomStringConvertible {
    /// Nothing came from the wheel (or no key was pressed) before the step ended.
    case noInput
    /// Some input, but too little to judge: `count` events (or samples), `needed` at least.
    case tooFewEvents(count: Int, needed: Int)
    /// The wheel went both ways (more than contact bounce explains): `forward` and `backward` events
    /// (degrees for a touch ring).
    case mixedDirections(forward: Int, backward: Int)
    /// Contact bounce left a count that is not 1, 2 or 4 (`net` events after `reversals` reversals).
    case bounce(net: Int, reversals: Int)
    /// A clean count that no encoder gives for one detent: 3, or more than 4 (more than one detent turned).
    case unusualCount(Int)
    /// The turn went the other way from the detent.
    case directionChanged
    /// One turn's count does not fit the detent's: `turnEvents` events for one turn, `detentEvents` for
    /// one detent, `detentsPerTurn` expected (nil: the default 16–25).
    case turnMismatch(detentEvents: Int, turnEvents: Int, detentsPerTurn: Int?)
    /// The kernel's buffer overflowed (SYN_DROPPED): events were lost.
    case lostEvents
    /// The finger went round less than the step asks: `degrees` of a circle.
    case circleTooShort(degrees: Int)
    /// The samples are not on a circle: their distance from the centre varies by `spreadPercent` of the radius.
    case notACircle(spreadPercent: Int)
    /// The second circle's centre or size is far from the first one's: `offsetPercent` of the radius.
    case circleMoved(offsetPercent: Int)
    /// More than one key was pressed (codes, sorted): press only Select.
    case severalKeys([UInt16])

    public var description: String {
        switch self {
        case .noInput:
            "nothing came; try again"
        case .tooFewEvents(let count, let needed):
            "only \(count) events (at least \(needed) needed); try again"
        case .mixedDirections(let forward, let backward):
            "the wheel went both ways (\(forward) forward, \(backward) back); turn one way only and try again"
        case .bounce(let net, let reversals):
            "contact bounce (\(reversals) reversals) left \(net) events, not 1, 2 or 4; turn slowly and try again"
        case .unusualCount(let n):
            "\(n) events for one detent (1, 2 or 4 expected); turn exactly one detent and try again"
        case .directionChanged:
            "the turn went the other way from the detent; turn clockwise and try again"
        case .turnMismatch(let detent, let turn, let detents):
            "one turn gave \(turn) events, which does not fit \(detent) per detent with "
                + (detents.map { "\($0) detents per turn" } ?? "20 or 24 detents per turn (16–25 accepted)")
                + "; try again, or give the encoder's detents per turn with --detents N"
        case .lostEvents:
            "events were lost (the kernel's buffer overflowed); try again"
        case .circleTooShort(let degrees):
            "the finger went round \(degrees)°, not a full circle; try again"
        case .notACircle(let spread):
            "that was not a circle (distance from the centre varies by \(spread) %); follow the ring and try again"
        case .circleMoved(let offset):
            "the second circle is \(offset) % of the radius away from the first; follow the same ring and try again"
        case .severalKeys(let codes):
            "several keys were pressed (codes \(codes.map(String.init).joined(separator: ", "))); press only Select"
        }
    }
}

/// What one calibration step found, or why it could not tell.
public enum CalibrationOutcome<Finding: Hashable & Sendable>: Hashable, Sendable {
    case found(Finding)
    case tryAgain(CalibrationProblem)

    public var finding: Finding? {
        if case .found(let f) = self { return f }
        return nil
    }

    public var problem: CalibrationProblem? {
        if case .tryAgain(let p) = self { return p }
        return nil
    }
}

/// What a finished calibration says about the device: the values for the configuration.
public struct CalibrationResult: Hashable, Sendable {
    public enum Wheel: Hashable, Sendable {
        /// A rotary encoder on relative `axis`, `stepsPerDetent` events per detent; `eventsPerTurn`
        /// were counted for one full turn.
        case rotary(axis: UInt16, stepsPerDetent: Int, eventsPerTurn: Int)
        /// A touch ring with this geometry (device units) and step size.
        case touchRing(TouchRingDecoder.Ring, degreesPerStep: Double)
    }

    public var wheel: Wheel
    /// The device's clockwise is negative: the configuration must invert the wheel.
    public var inverted: Bool
    /// The EV_KEY code of the Select button; nil when Select is the touch ring's centre.
    public var selectKey: UInt16?
    /// Things worth knowing that did not stop the calibration (contact bounce seen, …).
    public var notes: [String]

    public init(wheel: Wheel, inverted: Bool, selectKey: UInt16?, notes: [String] = []) {
        self.wheel = wheel
        self.inverted = inverted
        self.selectKey = selectKey
        self.notes = notes
    }
}
