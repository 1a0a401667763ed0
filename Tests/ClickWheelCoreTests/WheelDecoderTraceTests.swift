import ClickWheelCore
import Testing

@Suite struct WheelDecoderTraceTests {
    @Test func a450DegreeCircleAt15DegreesPerStepGivesExactly30Steps() throws {
        var decoder = TraceFile.touchDecoder()
        let out = decoder.feed(try TraceFile.events("circle-450-cw.evemu"))
        #expect(out.steps.reduce(0, +) == 30)
        #expect(out.steps.allSatisfy { $0 > 0 })
        #expect(out.buttons.isEmpty)
    }

    @Test func theSameCircleAt10DegreesPerStepGives45() throws {
        var decoder = TraceFile.touchDecoder(degreesPerStep: 10)
        #expect(decoder.feed(try TraceFile.events("circle-450-cw.evemu")).steps.reduce(0, +) == 45)
    }

    @Test func anticlockwiseMultitouchTurnGivesMinus24() throws {
        var decoder = TraceFile.touchDecoder()
        let out = decoder.feed(try TraceFile.events("circle-360-ccw-mt.evemu"))
        #expect(out.steps.reduce(0, +) == -24)
    }

    @Test func invertedRingTurnsTheOtherWay() throws {
        var decoder = TraceFile.touchDecoder()
        decoder.touchRing?.inverted = true
        #expect(decoder.feed(try TraceFile.events("circle-450-cw.evemu")).steps.reduce(0, +) == -30)
    }

    @Test func tapsOnTheRingAreButtonsAndTheCentreIsSelect() throws {
        var decoder = TraceFile.touchDecoder()
        let out = decoder.feed(try TraceFile.events("taps.evemu"))
        #expect(out.steps.isEmpty)
        #expect(
            out.buttons == [
                "menu down", "menu up", "next down", "next up", "playPause down", "playPause up",
                "previous down", "previous up", "select down", "select up",
            ])
        // The centre press lasted 800 ms: long enough to be a hold.
        let selects = out.compactMap { if case .button(.select, _, let t) = $0 { t } else { nil } }
        #expect(selects.count == 2 && selects[1].milliseconds(since: selects[0]) >= 600)
    }

    @Test func liftAndSynDroppedResetTheRemainder() throws {
        var decoder = TraceFile.touchDecoder()
        let out = decoder.feed(try TraceFile.events("lift-and-dropped.evemu"))
        // 40° → 2 steps (10° dropped at lift), twice; 20° → 1 (5° dropped at SYN_DROPPED); 40° → 2.
        #expect(out.steps.reduce(0, +) == 7)
    }

    @Test func rotaryWithTwoEventsPerDetentLosesAndDoublesNothing() throws {
        var decoder = WheelDecoder(rotary: RotaryDecoder(axis: EvdevCode.relX, stepsPerDetent: 2))
        let out = decoder.feed(try TraceFile.events("rotary-2-per-detent.evemu"))
        #expect(out.steps == [1, 1, 1, -1, -1])
    }

    @Test func rotaryOnAnotherAxisIgnoresRelX() throws {
        var decoder = WheelDecoder(rotary: RotaryDecoder(axis: EvdevCode.relDial, stepsPerDetent: 1))
        #expect(decoder.feed(try TraceFile.events("rotary-2-per-detent.evemu")).steps.isEmpty)
    }

    @Test func rotaryInvertedWithFourPerDetent() {
        var rotary = RotaryDecoder(stepsPerDetent: 4, inverted: true)
        let values: [Int32] = [1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1]
        let steps = values.map {
            rotary.feed(RawInputEvent(time: .zero, type: EvdevCode.evRel, code: EvdevCode.relX, value: $0))
        }
        #expect(steps.reduce(0, +) == -2)
        #expect(steps.filter { $0 != 0 }.count == 2)
    }

    @Test func keysBecomeButtonEdgesAndAutorepeatIsIgnored() {
        var decoder = WheelDecoder()
        let events = [1, 2, 2, 0].map {
            RawInputEvent(time: .ms(5), type: EvdevCode.evKey, code: EvdevCode.keyMenu, value: Int32($0))
        }
        #expect(decoder.feed(events).buttons == ["menu down", "menu up"])
    }

    @Test func evemuParsingAndFormattingRoundTrip() throws {
        let events = try TraceFile.events("taps.evemu")
        #expect(events.count > 20)
        #expect(try EvemuTrace.parse(EvemuTrace.format(events)) == events)
        #expect(throws: EvemuTrace.ParseError.self) { try EvemuTrace.parse("E: 1.0 zz 0 1") }
    }
}
