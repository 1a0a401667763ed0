/// Turns a touchpad's absolute positions into wheel steps and ring taps, like an iPod's touch wheel.
///
/// Positions come from ABS_X/ABS_Y or multitouch slot 0 (ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID),
/// each axis normalised by its range to −1…1, or by the calibrated `ring` (centre and radius) when
/// given. The angle is unwrapped sample to sample (the shortest way round), so crossing 0°/360°
/// neither loses nor invents steps, and the remainder below one step carries over within a touch. A
/// touch in the centre disc (radius below `deadZone`) is Select, held as long as the finger stays down;
/// a short touch on the ring that does not turn is a tap: top = Menu, bottom = Play/Pause, left =
/// Previous, right = Next. Lift and SYN_DROPPED reset.
public struct TouchRingDecoder: Hashable, Sendable {
    public struct Range: Hashable, Sendable {
        public var min: Int32
        public var max: Int32
        public init(min: Int32, max: Int32) {
            self.min = min
            self.max = max
        }
    }

    /// Where the ring lies on the pad, in device units (measured by `clickwheel calibrate`).
    public struct Ring: Hashable, Sendable {
        public var centerX: Double
        public var centerY: Double
        public var radius: Double
        public init(centerX: Double, centerY: Double, radius: Double) {
            precondition(radius > 0, "the ring's radius must be positive")
            self.centerX = centerX
            self.centerY = centerY
            self.radius = radius
        }
    }

    public var xRange: Range
    public var yRange: Range
    /// The ring's centre and radius; nil: centred on the pad, filling both axes' ranges.
    public var ring: Ring?
    /// Degrees of finger travel per wheel step (15 gives 24 steps per turn, as an iPod).
    public var degreesPerStep: Double
    /// Radius of the centre disc, as a fraction of the ring's radius.
    public var deadZone: Double
    public var inverted: Bool
    /// The longest touch, in milliseconds, that still counts as a tap.
    public var tapMaxMS: Int64 = 400

    private var sample = TouchSample()
    private var wasTouching = false
    private var dropping = false
    private var lastAngle: Double?
    private var remainder = 0.0
    private var travelled = 0.0
    private var touchStart = Timestamp.zero
    private var startAngle: Double?
    private var selectHeld = false

    public init(
        xRange: Range, yRange: Range, degreesPerStep: Double = 15, deadZone: Double = 0.35, inverted: Bool = false,
        ring: Ring? = nil
    ) {
        precondition(degreesPerStep > 0 && xRange.max > xRange.min && yRange.max > yRange.min)
        self.xRange = xRange
        self.yRange = yRange
        self.degreesPerStep = degreesPerStep
        self.deadZone = deadZone
        self.inverted = inverted
        self.ring = ring
    }

    /// Feeds one raw event; returns what it completes (steps and buttons are emitted at SYN_REPORT).
    public mutating func feed(_ event: RawInputEvent) -> [InputEvent] {
        switch (event.type, event.code) {
        case (EvdevCode.evSyn, EvdevCode.synDropped):
            dropping = true
            return reset(at: event.time)
        case (EvdevCode.evSyn, EvdevCode.synReport):
            if dropping {
                dropping = false
                return []
            }
            return frame(at: event.time)
        case _ where dropping:
            return []
        default:
            sample.feed(type: event.type, code: event.code, value: event.value)
        }
        return []
    }

    private var touching: Bool { sample.touching }

    /// The finger's position in −1…1 on both axes, nil before the first position of a touch.
    private var normalised: (x: Double, y: Double)? {
        guard let x = sample.x, let y = sample.y else { return nil }
        if let ring {
            return ((Double(x) - ring.centerX) / ring.radius, (Double(y) - ring.centerY) / ring.radius)
        }
        func norm(_ v: Int32, _ r: Range) -> Double {
            (Double(v) - Double(r.min)) / Double(r.max - r.min) * 2 - 1
        }
        return (norm(x, xRange), norm(y, yRange))
    }

    private mutating func frame(at time: Timestamp) -> [InputEvent] {
        var out: [InputEvent] = []
        if touching, let p = normalised {
            let inCentre = (p.x * p.x + p.y * p.y) < deadZone * deadZone
            if !wasTouching {
                touchStart = time
                travelled = 0
                remainder = 0
                if inCentre {
                    selectHeld = true
                    out.append(.button(.select, .down, at: time))
                }
                startAngle = inCentre ? nil : Angle.degrees(x: p.x, y: p.y)
            }
            if inCentre {
                lastAngle = nil
            } else {
                let angle = Angle.degrees(x: p.x, y: p.y)
                if let last = lastAngle {
                    let d = Angle.delta(from: last, to: angle)
                    travelled += abs(d)
                    remainder += inverted ? -d : d
                    // A hair of tolerance: rounding in the summed deltas must not cost a whole step.
                    let tolerance = remainder < 0 ? -1e-6 : 1e-6
                    let steps = Int((remainder + tolerance) / degreesPerStep)
                    if steps != 0 {
                        remainder -= Double(steps) * degreesPerStep
                        out.append(.wheel(steps: steps, at: time))
                    }
                }
                lastAngle = angle
            }
            wasTouching = true
        } else if !touching && wasTouching {
            out += lift(at: time)
        }
        return out
    }

    private mutating func lift(at time: Timestamp) -> [InputEvent] {
        var out: [InputEvent] = []
        if selectHeld {
            out.append(.button(.select, .up, at: time))
        } else if let start = startAngle, travelled < degreesPerStep,
            time.milliseconds(since: touchStart) <= tapMaxMS
        {
            let button = Self.tapButton(at: start)
            out += [.button(button, .down, at: time), .button(button, .up, at: time)]
        }
        clear()
        return out
    }

    private mutating func reset(at time: Timestamp) -> [InputEvent] {
        let out: [InputEvent] = selectHeld ? [.button(.select, .up, at: time)] : []
        clear()
        sample.lift()
        return out
    }

    private mutating func clear() {
        wasTouching = false
        selectHeld = false
        lastAngle = nil
        startAngle = nil
        remainder = 0
        travelled = 0
    }

    /// The button a tap at `angle` means (0° = right, 90° = bottom in screen coordinates).
    static func tapButton(at angle: Double) -> Button {
        switch angle {
        case 45..<135: .playPause
        case 135..<225: .previous
        case 225..<315: .menu
        default: .next
        }
    }
}
