import ClickWheelCore
import Foundation
import Testing

/// The calibration's analysis on synthetic event sequences: rotary encoders with 1, 2 and 4 events
/// per detent, reversed, bouncing; touch circles both ways; input too short or too mixed to tell.
@Suite struct CalibrationTests {
    // MARK: Synthetic input

    /// A rotary encoder turning: each value at its time (ms), each followed by SYN_REPORT.
    static func rel(_ moves: [(ms: Int64, value: Int32)], axis: UInt16 = EvdevCode.relX) -> [RawInputEvent] {
        moves.flatMap { m in
            [
                RawInputEvent(time: .ms(m.ms), type: EvdevCode.evRel, code: axis, value: m.value),
                RawInputEvent(time: .ms(m.ms), type: EvdevCode.evSyn, code: EvdevCode.synReport, value: 0),
            ]
        }
    }

    /// `detents` detents of `perDetent` events each, 60 ms apart, in direction `sign`, from `start` ms.
    static func detents(_ detents: Int, perDetent: Int, sign: Int32 = 1, start: Int64 = 0) -> [RawInputEvent] {
        rel((0..<(detents * perDetent)).map { (start + Int64($0) * 60, sign) })
    }

    /// One finger going round (cx, cy) at `radius`, from `startAngle` for `degrees` (negative:
    /// anticlockwise), a sample every 5°, with BTN_TOUCH down and up; `wobble` varies the radius.
    static func circle(
        cx: Double = 512, cy: Double = 512, radius: Double = 400, startAngle: Double = 270, degrees: Double = 360,
        wobble: Double = 0, start: Int64 = 0
    ) -> [RawInputEvent] {
        var out: [RawInputEvent] = []
        var t = start
        func frame(_ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events {
                out.append(RawInputEvent(time: .ms(t), type: type, code: code, value: value))
            }
            out.append(RawInputEvent(time: .ms(t), type: EvdevCode.evSyn, code: EvdevCode.synReport, value: 0))
            t += 10
        }
        let n = Int((abs(degrees) / 5).rounded(.up))
        for i in 0...n {
            let a = (startAngle + (degrees < 0 ? -1 : 1) * min(Double(i) * 5, abs(degrees))) * .pi / 180
            let r = radius * (1 + wobble * (i % 2 == 0 ? 1 : -1))
            let x = Int32((cx + r * cos(a)).rounded())
            let y = Int32((cy + r * sin(a)).rounded())
            var events: [(UInt16, UInt16, Int32)] = [
                (EvdevCode.evAbs, EvdevCode.absX, x), (EvdevCode.evAbs, EvdevCode.absY, y),
            ]
            if i == 0 { events.append((EvdevCode.evKey, EvdevCode.btnTouch, 1)) }
            frame(events)
        }
        frame([(EvdevCode.evKey, EvdevCode.btnTouch, 0)])
        return out
    }

    static func key(_ code: UInt16, at ms: Int64 = 0, holdMS: Int64 = 80) -> [RawInputEvent] {
        [
            RawInputEvent(time: .ms(ms), type: EvdevCode.evKey, code: code, value: 1),
            RawInputEvent(time: .ms(ms), type: EvdevCode.evSyn, code: EvdevCode.synReport, value: 0),
            RawInputEvent(time: .ms(ms + holdMS), type: EvdevCode.evKey, code: code, value: 0),
            RawInputEvent(time: .ms(ms + holdMS), type: EvdevCode.evSyn, code: EvdevCode.synReport, value: 0),
        ]
    }

    /// Runs a whole calibration: each step's events, then a settle check and `finishStep`.
    static func calibrate(
        _ steps: [[RawInputEvent]], detentsPerTurn: Int? = nil
    ) -> (results: [WheelCalibration.StepResult], calibration: WheelCalibration) {
        var c = WheelCalibration(detentsPerTurn: detentsPerTurn)
        var results: [WheelCalibration.StepResult] = []
        for events in steps {
            for e in events { c.feed(e) }
            let last = events.last?.time ?? .zero
            #expect(!c.isSettled(at: last), "not settled right after the last event")
            #expect(c.isSettled(at: last.adding(ms: 1500)))
            results.append(c.finishStep())
        }
        return (results, c)
    }

    // MARK: Rotary encoders

    @Test(arguments: [1, 2, 4])
    func aRotaryEncoderGivesItsEventsPerDetentConfirmedByATurn(perDetent: Int) {
        let (results, c) = Self.calibrate([
            Self.detents(1, perDetent: perDetent), Self.detents(20, perDetent: perDetent),
            Self.key(EvdevCode.keyEnter),
        ])
        #expect(results.count == 3)
        #expect(c.step == .done)
        #expect(
            c.result
                == CalibrationResult(
                    wheel: .rotary(axis: EvdevCode.relX, stepsPerDetent: perDetent, eventsPerTurn: 20 * perDetent),
                    inverted: false, selectKey: EvdevCode.keyEnter))
    }

    @Test func aReversedEncoderIsInverted() {
        let (_, c) = Self.calibrate([
            Self.detents(1, perDetent: 2, sign: -1), Self.detents(24, perDetent: 2, sign: -1), Self.key(0x110),
        ])
        #expect(c.result?.inverted == true)
        #expect(c.result?.wheel == .rotary(axis: EvdevCode.relX, stepsPerDetent: 2, eventsPerTurn: 48))
        #expect(c.result?.selectKey == 0x110)
    }

    @Test func contactBounceThatCancelsIsHarmlessAndNoted() {
        // As the Pi's rotary-encoder driver passes bounce: +1, −1 two ms later, +1, then the real +1.
        let bouncy = Self.rel([(0, 1), (2, -1), (4, 1), (14, 1)])
        guard case .found(let d) = RotaryCalibration.detent(bouncy) else {
            Issue.record("a bounced detent must read")
            return
        }
        #expect(d.stepsPerDetent == 2 && d.clockwiseSign == 1 && d.bounces == 1)
        let (_, c) = Self.calibrate([bouncy, Self.detents(20, perDetent: 2), Self.key(EvdevCode.keyEnter)])
        #expect(c.result?.notes == ["contact bounce seen (1 events taken back at once): harmless"])
    }

    @Test func bounceThatLeavesAnOddCountIsAskedAgain() {
        let odd = Self.rel([(0, 1), (2, -1), (4, 1), (14, 1), (40, 1)])
        #expect(RotaryCalibration.detent(odd) == .tryAgain(.bounce(net: 3, reversals: 2)))
    }

    @Test func turningBothWaysIsMixed() {
        let mixed = Self.rel([(0, 1), (60, 1), (300, -1), (360, -1), (420, 1), (480, 1)])
        #expect(RotaryCalibration.detent(mixed) == .tryAgain(.mixedDirections(forward: 4, backward: 2)))
        let detent = RotaryCalibration.Detent(axis: EvdevCode.relX, stepsPerDetent: 1, clockwiseSign: 1, bounces: 0)
        let wobblyTurn = Self.detents(14, perDetent: 1) + Self.detents(6, perDetent: 1, sign: -1, start: 2000)
        #expect(
            RotaryCalibration.turn(wobblyTurn, detent: detent, detentsPerTurn: nil)
                == .tryAgain(.mixedDirections(forward: 14, backward: 6)))
    }

    @Test func threeOrFiveEventsAreNoDetent() {
        #expect(RotaryCalibration.detent(Self.detents(3, perDetent: 1)) == .tryAgain(.unusualCount(3)))
        #expect(RotaryCalibration.detent(Self.detents(5, perDetent: 1)) == .tryAgain(.unusualCount(5)))
        #expect(RotaryCalibration.detent([]) == .tryAgain(.noInput))
    }

    @Test func aTurnThatDoesNotFitTheDetentIsAskedAgain() {
        // The user turned two detents in step 1 of a one-event encoder: the turn says 1, not 2.
        let (results, c) = Self.calibrate([Self.detents(2, perDetent: 1), Self.detents(20, perDetent: 1)])
        #expect(results[1] == .tryAgain(.turnMismatch(detentEvents: 2, turnEvents: 20, detentsPerTurn: nil)))
        #expect(c.step == .turn, "the turn is asked again")
        // A 30-detent encoder needs --detents 30; with it the turn confirms.
        let d = RotaryCalibration.Detent(axis: EvdevCode.relX, stepsPerDetent: 1, clockwiseSign: 1, bounces: 0)
        #expect(
            RotaryCalibration.turn(Self.detents(30, perDetent: 1), detent: d, detentsPerTurn: nil)
                == .tryAgain(.turnMismatch(detentEvents: 1, turnEvents: 30, detentsPerTurn: nil)))
        #expect(
            RotaryCalibration.turn(Self.detents(30, perDetent: 1), detent: d, detentsPerTurn: 30)
                == .found(.init(events: 30, detents: 30, bounces: 0)))
    }

    @Test func aTooShortTurnOrOneTheOtherWayIsAskedAgain() {
        let d = RotaryCalibration.Detent(axis: EvdevCode.relX, stepsPerDetent: 2, clockwiseSign: 1, bounces: 0)
        #expect(
            RotaryCalibration.turn(Self.detents(2, perDetent: 2), detent: d, detentsPerTurn: nil)
                == .tryAgain(.tooFewEvents(count: 4, needed: 8)))
        #expect(
            RotaryCalibration.turn(Self.detents(20, perDetent: 2, sign: -1), detent: d, detentsPerTurn: nil)
                == .tryAgain(.directionChanged))
    }

    @Test func aDroppedBufferIsAskedAgain() {
        let lost =
            Self.detents(1, perDetent: 2) + [
                RawInputEvent(time: .ms(200), type: EvdevCode.evSyn, code: EvdevCode.synDropped, value: 0)
            ]
        #expect(RotaryCalibration.detent(lost) == .tryAgain(.lostEvents))
    }

    // MARK: Touch rings

    @Test func aClockwiseCircleGivesTheRingAndPositiveClockwise() throws {
        // An off-centre ring: the pad is 0…1023 but the ring sits at (600, 450), radius 300.
        let (results, c) = Self.calibrate([
            Self.circle(cx: 600, cy: 450, radius: 300),
            Self.circle(cx: 602, cy: 448, radius: 296, startAngle: 0, start: 5000),
            Self.key(0x110, at: 9000),
        ])
        guard case .circle(let first) = results[0] else {
            Issue.record("the circle must read: \(results[0])")
            return
        }
        #expect(abs(first.ring.centerX - 600) < 1 && abs(first.ring.centerY - 450) < 1)
        #expect(abs(first.ring.radius - 300) < 1 && first.sweep > 355)
        let result = try #require(c.result)
        #expect(result.inverted == false && result.selectKey == 0x110)
        guard case .touchRing(let ring, let degrees) = result.wheel else {
            Issue.record("a touch ring")
            return
        }
        #expect(degrees == 15)
        #expect(abs(ring.centerX - 601) < 2 && abs(ring.centerY - 449) < 2 && abs(ring.radius - 298) < 3)
    }

    @Test func anAnticlockwiseCircleMeansInverted() {
        let (_, c) = Self.calibrate([
            Self.circle(degrees: -370), Self.circle(startAngle: 90, degrees: -360, start: 5000),
            Self.key(EvdevCode.keyEnter, at: 9000),
        ])
        #expect(c.result?.inverted == true)
    }

    @Test func aTapOnThePadIsSelectWithoutAKey() {
        let tap = Self.circle(cx: 512, cy: 512, radius: 20, degrees: 0)
        #expect(WheelCalibration.press(tap) == .found(nil))
        #expect(
            WheelCalibration.press(Self.key(EvdevCode.keyEnter) + Self.key(EvdevCode.keyMenu, at: 100))
                == .tryAgain(.severalKeys([EvdevCode.keyEnter, EvdevCode.keyMenu])))
    }

    @Test func aShortArcAFewSamplesOrAScribbleIsAskedAgain() {
        #expect(TouchCalibration.circle(Self.circle(degrees: 200)) == .tryAgain(.circleTooShort(degrees: 200)))
        #expect(TouchCalibration.circle(Self.circle(degrees: 30)) == .tryAgain(.tooFewEvents(count: 7, needed: 12)))
        guard case .tryAgain(.notACircle) = TouchCalibration.circle(Self.circle(wobble: 0.4)) else {
            Issue.record("a wobbly scribble is no circle")
            return
        }
        let there = Self.circle(degrees: 200)
        let back = Self.circle(startAngle: 110, degrees: -200, start: 3000)
        guard case .tryAgain(.mixedDirections) = TouchCalibration.circle(there + back) else {
            Issue.record("round and back is mixed")
            return
        }
    }

    @Test func aSecondCircleElsewhereIsAskedAgain() {
        let (results, c) = Self.calibrate([Self.circle(), Self.circle(cx: 700, cy: 512, radius: 250, start: 5000)])
        #expect(results[1] == .tryAgain(.circleMoved(offsetPercent: 47)))
        #expect(c.step == .turn)
    }

    @Test func theFitFindsTheCentreOfAnArc() throws {
        let points = stride(from: 0.0, to: 180, by: 10).map { a in
            TouchCalibration.Point(x: 100 + 50 * cos(a * .pi / 180), y: -30 + 50 * sin(a * .pi / 180))
        }
        let ring = try #require(TouchCalibration.fit(points))
        #expect(abs(ring.centerX - 100) < 1e-6 && abs(ring.centerY + 30) < 1e-6 && abs(ring.radius - 50) < 1e-6)
        #expect(TouchCalibration.fit([.init(x: 0, y: 0), .init(x: 1, y: 1), .init(x: 2, y: 2)]) == nil)
    }

    @Test func theDecoderUsesACalibratedRing() {
        // Without the ring, a circle round (600, 450) would be read round the pad's middle.
        var decoder = TouchRingDecoder(
            xRange: .init(min: 0, max: 1023), yRange: .init(min: 0, max: 1023),
            ring: .init(centerX: 600, centerY: 450, radius: 300))
        let steps = Self.circle(cx: 600, cy: 450, radius: 300).flatMap { decoder.feed($0) }.reduce(0) { sum, e in
            if case .wheel(let s, _) = e { sum + s } else { sum }
        }
        #expect(steps == 24)
    }
}
