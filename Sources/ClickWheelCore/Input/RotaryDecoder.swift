/// Turns `EV_REL` counts of a rotary encoder into detent steps, losing and doubling none.
///
/// Counts accumulate signed; every `stepsPerDetent` of them make one step, and a remainder carries
/// over (so a reversal mid-detent cancels out rather than producing a step). `SYN_DROPPED` clears
/// the remainder: counts lost in an overflow are gone anyway, and half a detent must not linger.
public struct RotaryDecoder: Hashable, Sendable {
    /// The relative axis the encoder reports on (REL_X from the Pi overlay, REL_DIAL, REL_WHEEL).
    public var axis: UInt16
    /// Events per detent: 1, 2 or 4.
    public var stepsPerDetent: Int
    /// Reverse the direction (instead of swapping the pins).
    public var inverted: Bool
    private var remainder = 0

    public init(axis: UInt16 = EvdevCode.relX, stepsPerDetent: Int = 1, inverted: Bool = false) {
        precondition([1, 2, 4].contains(stepsPerDetent), "steps per detent must be 1, 2 or 4")
        self.axis = axis
        self.stepsPerDetent = stepsPerDetent
        self.inverted = inverted
    }

    /// Feeds one raw event; returns the whole steps it completes (0 for most events).
    public mutating func feed(_ event: RawInputEvent) -> Int {
        if event.type == EvdevCode.evSyn && event.code == EvdevCode.synDropped {
            remainder = 0
            return 0
        }
        guard event.type == EvdevCode.evRel, event.code == axis else { return 0 }
        remainder += Int(event.value) * (inverted ? -1 : 1)
        let steps = remainder / stepsPerDetent
        remainder -= steps * stepsPerDetent
        return steps
    }
}
