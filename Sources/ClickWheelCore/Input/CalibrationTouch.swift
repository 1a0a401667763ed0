/// Reads a touchpad's positions for calibration: a circle drawn with one finger gives the ring's
/// centre and radius (a least-squares circle fit over the samples) and the sign of clockwise.
///
/// Positions are sampled at each SYN_REPORT while a finger is down (BTN_TOUCH or multitouch slot 0),
/// in device units; angles are measured around the fitted centre, so with screen-like axes (y grows
/// downwards) a positive sweep is clockwise.
public enum TouchCalibration {
    public struct Point: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The fewest samples a circle needs.
    public static let minimumSamples = 12
    /// The least a circle must go round, in degrees.
    public static let minimumSweep = 300.0
    /// The largest root-mean-square deviation from the fitted radius, as a fraction of it.
    public static let maximumSpread = 0.15
    /// How far the second circle may be from the first (centre offset or radius change), as a fraction.
    public static let maximumMove = 0.2

    /// The samples of each touch in `events`, and whether a SYN_DROPPED came.
    public static func touches(_ events: [RawInputEvent]) -> (touches: [[Point]], dropped: Bool) {
        var touches: [[Point]] = []
        var current: [Point] = []
        var sample = TouchSample()
        var dropped = false
        for e in events {
            switch (e.type, e.code) {
            case (EvdevCode.evSyn, EvdevCode.synDropped): dropped = true
            case (EvdevCode.evSyn, EvdevCode.synReport):
                if sample.touching {
                    if let x = sample.x, let y = sample.y { current.append(Point(x: Double(x), y: Double(y))) }
                } else if !current.isEmpty {
                    touches.append(current)
                    current = []
                }
            default: sample.feed(type: e.type, code: e.code, value: e.value)
            }
        }
        if !current.isEmpty { touches.append(current) }
        return (touches, dropped)
    }

    /// The circle through `points` that fits best (Kåsa's algebraic fit: least squares of
    /// x² + y² + Dx + Ey + F); nil when they are too few or on a line.
    public static func fit(_ points: [Point]) -> TouchRingDecoder.Ring? {
        guard points.count >= 3 else { return nil }
        // Centre the data first so the sums stay well conditioned.
        let mx = points.reduce(0) { $0 + $1.x } / Double(points.count)
        let my = points.reduce(0) { $0 + $1.y } / Double(points.count)
        var a = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for p in points {
            let x = p.x - mx
            let y = p.y - my
            let row = [x, y, 1.0]
            let rhs = -(x * x + y * y)
            for i in 0..<3 {
                for j in 0..<3 { a[i][j] += row[i] * row[j] }
                a[i][3] += row[i] * rhs
            }
        }
        guard let s = solve3(a) else { return nil }
        let cx = -s[0] / 2
        let cy = -s[1] / 2
        let r2 = cx * cx + cy * cy - s[2]
        guard r2 > 0, r2.isFinite else { return nil }
        return TouchRingDecoder.Ring(centerX: cx + mx, centerY: cy + my, radius: r2.squareRoot())
    }

    /// Gaussian elimination with partial pivoting on a 3×4 augmented matrix.
    private static func solve3(_ matrix: [[Double]]) -> [Double]? {
        var m = matrix
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            guard abs(m[pivot][col]) > 1e-9 else { return nil }
            m.swapAt(col, pivot)
            for row in 0..<3 where row != col {
                let f = m[row][col] / m[col][col]
                for k in col..<4 { m[row][k] -= f * m[col][k] }
            }
        }
        return (0..<3).map { m[$0][3] / m[$0][$0] }
    }

    /// A circle as drawn: the fitted ring, how far round it went and how round it was.
    public struct Circle: Hashable, Sendable {
        public var ring: TouchRingDecoder.Ring
        /// Signed degrees travelled round the centre (positive: clockwise on screen-like axes).
        public var sweep: Double
        /// Root-mean-square deviation from the radius, as a fraction of it.
        public var spread: Double
        /// The samples, in device units.
        public var points: [Point]
    }

    /// Reads the events of "draw one full circle clockwise".
    public static func circle(_ events: [RawInputEvent]) -> CalibrationOutcome<Circle> {
        let (touches, dropped) = touches(events)
        let points = touches.flatMap { $0 }
        if points.isEmpty { return .tryAgain(.noInput) }
        if dropped { return .tryAgain(.lostEvents) }
        if points.count < minimumSamples {
            return .tryAgain(.tooFewEvents(count: points.count, needed: minimumSamples))
        }
        guard let ring = fit(points) else { return .tryAgain(.notACircle(spreadPercent: 100)) }
        var forward = 0.0
        var backward = 0.0
        for touch in touches {
            var last: Double?
            for p in touch {
                let angle = Angle.degrees(x: p.x - ring.centerX, y: p.y - ring.centerY)
                if let last {
                    let d = Angle.delta(from: last, to: angle)
                    if d > 0 { forward += d } else { backward -= d }
                }
                last = angle
            }
        }
        let sweep = forward - backward
        let variance =
            points.reduce(0.0) { sum, p in
                let dx = p.x - ring.centerX
                let dy = p.y - ring.centerY
                let d = (dx * dx + dy * dy).squareRoot() - ring.radius
                return sum + d * d
            } / Double(points.count)
        let spread = variance.squareRoot() / ring.radius
        if min(forward, backward) > max(45, 0.15 * abs(sweep)) {
            return .tryAgain(.mixedDirections(forward: Int(forward.rounded()), backward: Int(backward.rounded())))
        }
        if spread > maximumSpread { return .tryAgain(.notACircle(spreadPercent: Int((spread * 100).rounded()))) }
        if abs(sweep) < minimumSweep { return .tryAgain(.circleTooShort(degrees: Int(abs(sweep).rounded()))) }
        return .found(Circle(ring: ring, sweep: sweep, spread: spread, points: points))
    }

    /// Reads a second circle against the first: same direction, same ring; found, it is the fit over
    /// both circles' samples.
    public static func confirm(_ events: [RawInputEvent], first: Circle) -> CalibrationOutcome<Circle> {
        let second: Circle
        switch circle(events) {
        case .tryAgain(let problem): return .tryAgain(problem)
        case .found(let c): second = c
        }
        if (second.sweep > 0) != (first.sweep > 0) { return .tryAgain(.directionChanged) }
        let dx = second.ring.centerX - first.ring.centerX
        let dy = second.ring.centerY - first.ring.centerY
        let moved =
            max((dx * dx + dy * dy).squareRoot(), abs(second.ring.radius - first.ring.radius))
            / first.ring.radius
        if moved > maximumMove { return .tryAgain(.circleMoved(offsetPercent: Int((moved * 100).rounded()))) }
        let points = first.points + second.points
        guard let ring = fit(points) else { return .tryAgain(.notACircle(spreadPercent: 100)) }
        return .found(
            Circle(
                ring: ring, sweep: first.sweep + second.sweep, spread: max(first.spread, second.spread),
                points: points))
    }
}
