/// Velocity-based wheel acceleration after Rockbox's iPod curve: slow turns move one item per step,
/// fast spins many.
///
/// Velocity is measured in degrees per second from the time between steps (`degreesPerStep` of
/// travel each) and smoothed the way Rockbox smooths it per wheel position (v = (15v + new)/16, four
/// positions per step). A reversal or a pause longer than 250 ms starts again from rest. Items per
/// step are (v / start)⁴ when that exceeds 1, with start = 270 °/s (Normal, `WHEEL_ACCEL_START` of
/// ipod6g.h) or 200 °/s (Fast); Off always moves one item per step.
public struct WheelAccelerator: Hashable, Sendable {
    public var mode: Settings.Acceleration
    public var degreesPerStep: Double
    /// Velocity, degrees per second; 0 at rest.
    public private(set) var velocity: Double = 0
    private var lastTime: Timestamp?
    private var lastDirection = 0

    /// The longest pause between steps that keeps the velocity, milliseconds.
    public static let pauseResetMS: Int64 = 250
    /// The most items one step may move (keeps a wild spin from overshooting by whole libraries).
    public static let maxItemsPerStep = 1000

    public init(mode: Settings.Acceleration = .normal, degreesPerStep: Double = 15) {
        self.mode = mode
        self.degreesPerStep = degreesPerStep
    }

    /// Registers `steps` signed wheel steps at `time`; returns the signed number of items to move.
    public mutating func items(for steps: Int, at time: Timestamp) -> Int {
        guard steps != 0 else { return 0 }
        let direction = steps > 0 ? 1 : -1
        let count = abs(steps)
        var dtMicros: Int64 = 0
        if let last = lastTime, direction == lastDirection,
            time.milliseconds(since: last) <= Self.pauseResetMS, time > last
        {
            dtMicros = (time.microseconds - last.microseconds) / Int64(count)
        } else {
            velocity = 0
        }
        lastTime = time
        lastDirection = direction
        var total = 0
        for _ in 0..<count {
            if dtMicros > 0 {
                let measured = degreesPerStep * 1_000_000 / Double(dtMicros)
                velocity = velocity == 0 ? measured : velocity * Self.keep + measured * (1 - Self.keep)
            }
            total += itemsPerStep()
        }
        return total * direction
    }

    /// Forgets the motion (on a screen change, so a spin does not carry into the next list).
    public mutating func reset() {
        velocity = 0
        lastTime = nil
        lastDirection = 0
    }

    /// (15/16)⁴: what remains of the old velocity after one step of four wheel positions.
    private static let keep = 0.7724761962890625

    private func itemsPerStep() -> Int {
        let start: Double
        switch mode {
        case .off: return 1
        case .normal: start = 270
        case .fast: start = 200
        }
        let r = velocity / start
        let items = r * r * r * r
        // Clamped as a Double: a burst of steps a microsecond apart (`wheel 10000` twice in 10 ms over
        // the socket) makes (v / start)⁴ larger than any Int, and converting that would trap.
        return items > 1 ? Int(min(items, Double(Self.maxItemsPerStep))) : 1
    }
}
