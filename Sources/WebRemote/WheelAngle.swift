/// Turns the page's raw angle deltas into wheel steps: one step per `degreesPerStep` of drag around the
/// wheel's centre (20°, as the SwiftUI clone of the iPod does), positive = clockwise = down the list.
///
/// The remainder below one step carries over (two drags of 10° make a step), and a reversal starts
/// again from zero so a wobble does not step. How many items a step moves is not decided here: the
/// steps go to the engine as `Event.wheel`, whose `WheelAccelerator` applies the same acceleration as
/// for a real wheel.
struct WheelAngle: Sendable {
    var degreesPerStep = 20.0
    /// The largest delta one message may carry: a full turn (more is a bad message).
    static let maxDelta = 360.0
    private var remainder = 0.0

    /// The steps `delta` degrees complete; nil when `delta` is not a finite number within ±`maxDelta`.
    mutating func steps(for delta: Double) -> Int? {
        guard delta.isFinite, abs(delta) <= Self.maxDelta else { return nil }
        if remainder != 0, (remainder > 0) != (delta > 0), delta != 0 { remainder = 0 }
        remainder += delta
        let steps = Int((remainder / degreesPerStep).rounded(.towardZero))
        remainder -= Double(steps) * degreesPerStep
        return steps
    }

    /// Forgets the remainder (the finger lifted).
    mutating func reset() { remainder = 0 }
}

/// A token bucket: `rate` tokens a second up to `burst`; each message takes one. Time comes in as
/// monotonic nanoseconds, so tests need no clock.
struct RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var lastNanos: UInt64?

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Takes a token at `nanos`; false when there is none (the message is dropped).
    mutating func allow(at nanos: UInt64) -> Bool {
        if let last = lastNanos, nanos > last {
            tokens = min(burst, tokens + Double(nanos - last) / 1e9 * rate)
        }
        lastNanos = max(lastNanos ?? nanos, nanos)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
