/// Reads a rotary encoder's raw counts for calibration: one detent, then one full turn.
///
/// Contact bounce shows up as a lone event against the turn that the next event, within
/// `bounceWindowMS`, takes back; the kernel's quadrature state machine lets such pairs through and
/// they cancel in the sum. Anything else against the turn is the user turning both ways.
public enum RotaryCalibration {
    /// How long a bounce may last before its reversal counts as a real one.
    public static let bounceWindowMS: Int64 = 30

    /// What the relative events of one step add up to.
    public struct Count: Hashable, Sendable {
        /// The axis counted (the first wheel axis seen: REL_X, REL_DIAL or REL_WHEEL).
        public var axis: UInt16
        /// The signed sum of the values.
        public var net: Int
        /// The sums of the positive and of the negative values (as a positive number).
        public var forward: Int
        public var backward: Int
        /// Events against the turn that the next event soon took back.
        public var bounces: Int
        /// Events against the turn that were not bounce.
        public var against: Int
        /// Changes of direction between consecutive events.
        public var reversals: Int
        /// A SYN_DROPPED came: counts were lost.
        public var dropped: Bool
    }

    /// The counts of `events` on the first wheel axis among them; nil when there is none.
    public static func count(_ events: [RawInputEvent]) -> Count? {
        let wheelAxes: Set<UInt16> = [EvdevCode.relX, EvdevCode.relDial, EvdevCode.relWheel]
        guard let axis = events.first(where: { $0.type == EvdevCode.evRel && wheelAxes.contains($0.code) })?.code
        else { return nil }
        let moves = events.filter { $0.type == EvdevCode.evRel && $0.code == axis && $0.value != 0 }
        let dropped = events.contains { $0.type == EvdevCode.evSyn && $0.code == EvdevCode.synDropped }
        let net = moves.reduce(0) { $0 + Int($1.value) }
        let forward = moves.reduce(0) { $0 + max(0, Int($1.value)) }
        let backward = moves.reduce(0) { $0 + max(0, -Int($1.value)) }
        let sign = net != 0 ? net.signum() : Int(moves.first?.value ?? 1).signum()
        var bounces = 0
        var against = 0
        var reversals = 0
        for (i, e) in moves.enumerated() {
            if i > 0 && Int(moves[i - 1].value).signum() != Int(e.value).signum() { reversals += 1 }
            guard Int(e.value).signum() != sign else { continue }
            let next = i + 1 < moves.count ? moves[i + 1] : nil
            if let next, Int(next.value).signum() == sign, next.time.milliseconds(since: e.time) <= bounceWindowMS {
                bounces += abs(Int(e.value))
            } else {
                against += abs(Int(e.value))
            }
        }
        return Count(
            axis: axis, net: net, forward: forward, backward: backward, bounces: bounces, against: against,
            reversals: reversals, dropped: dropped)
    }

    /// One detent: how many events it gave and which sign clockwise has.
    public struct Detent: Hashable, Sendable {
        public var axis: UInt16
        /// Events per detent: 1, 2 or 4.
        public var stepsPerDetent: Int
        /// +1 when clockwise counts up, −1 when it counts down (the wheel must be inverted).
        public var clockwiseSign: Int
        /// Reversals that bounce explained (harmless, worth a note).
        public var bounces: Int

        public init(axis: UInt16, stepsPerDetent: Int, clockwiseSign: Int, bounces: Int) {
            self.axis = axis
            self.stepsPerDetent = stepsPerDetent
            self.clockwiseSign = clockwiseSign
            self.bounces = bounces
        }
    }

    /// Reads the events of "turn exactly one detent clockwise".
    public static func detent(_ events: [RawInputEvent]) -> CalibrationOutcome<Detent> {
        guard let c = count(events), c.forward + c.backward > 0 else { return .tryAgain(.noInput) }
        if c.dropped { return .tryAgain(.lostEvents) }
        if c.against > 0 { return .tryAgain(.mixedDirections(forward: c.forward, backward: c.backward)) }
        let n = abs(c.net)
        guard [1, 2, 4].contains(n) else {
            return .tryAgain(c.bounces > 0 ? .bounce(net: n, reversals: c.reversals) : .unusualCount(n))
        }
        return .found(Detent(axis: c.axis, stepsPerDetent: n, clockwiseSign: c.net.signum(), bounces: c.bounces))
    }

    /// One full turn, confirming the detent.
    public struct Turn: Hashable, Sendable {
        /// Events counted for the turn (clockwise, so positive).
        public var events: Int
        /// The detents that makes, at the detent's events per detent.
        public var detents: Int
        public var bounces: Int

        public init(events: Int, detents: Int, bounces: Int) {
            self.events = events
            self.detents = detents
            self.bounces = bounces
        }
    }

    /// The detents per turn accepted when the user does not say: 20 (KY-040, most EC11) and 24 (the
    /// Pi overlay's default `steps`, many panel encoders) both fit, give or take a detent or two.
    public static let defaultDetentsPerTurn: ClosedRange<Double> = 16...25

    /// Reads the events of "turn one full turn clockwise" against the detent found before;
    /// `detentsPerTurn` is the encoder's count if the user gave it.
    public static func turn(_ events: [RawInputEvent], detent: Detent, detentsPerTurn: Int?) -> CalibrationOutcome<Turn>
    {
        guard let c = count(events), c.axis == detent.axis, c.forward + c.backward > 0 else {
            return .tryAgain(.noInput)
        }
        if c.dropped { return .tryAgain(.lostEvents) }
        let n = c.net * detent.clockwiseSign
        if c.against > max(1, abs(c.net) / 10) {
            return .tryAgain(.mixedDirections(forward: c.forward, backward: c.backward))
        }
        if n < 0 { return .tryAgain(.directionChanged) }
        let needed = detentsPerTurn.map { max(4, $0 / 2) } ?? 8
        if n < needed { return .tryAgain(.tooFewEvents(count: n, needed: needed)) }
        let window: ClosedRange<Double> =
            detentsPerTurn.map { d in min(Double(d) - 1, Double(d) * 0.85)...max(Double(d) + 1, Double(d) * 1.15) }
            ?? defaultDetentsPerTurn
        let fits = [1, 2, 4].filter { window.contains(Double(n) / Double($0)) }
        guard fits == [detent.stepsPerDetent] else {
            return .tryAgain(
                .turnMismatch(detentEvents: detent.stepsPerDetent, turnEvents: n, detentsPerTurn: detentsPerTurn))
        }
        let detents = Int((Double(n) / Double(detent.stepsPerDetent)).rounded())
        return .found(Turn(events: n, detents: detents, bounces: c.bounces))
    }
}
