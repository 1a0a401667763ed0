// libFuzzer target 6 (issue 21): random evdev event sequences through the pure input decoders of
// ClickWheelCore (built into this module from Sources/ClickWheelCore by contrib/fuzz/run.sh): the wheel
// decoder (rotary encoder, touch ring, keys), the button gestures, and the calibration analysers
// (rotary detent and turn counts, touch-ring circle fit and confirmation, the select press, the whole
// calibration walk), the way `EvdevInput` and `clickwheel calibrate` feed them.
//
// Input: two bytes of setup (steps per detent, inversion, touch ring or not, its step size, whether the
// touch ring is a fitted circle), then 8-byte events: kind, code, value (Int32, little-endian) and the time
// since the previous event (UInt16, in 0.1 ms): the kernel's timestamps never go backwards. Kind and code
// are mostly mapped onto the codes the decoders know (REL_X/DIAL/WHEEL, ABS_X/Y and multitouch, BTN_TOUCH,
// the keys, SYN_REPORT/SYN_DROPPED), sometimes taken raw (kind & 7 ≥ 5). Seeds: the evemu recordings of
// Tests/*/Traces and Tests/DevicesTests/Evdev, written raw (contrib/fuzz/evdev/seeds.py).
//
// Checked (a failed check is a crash the fuzzer reports):
// - time never goes backwards: every decoded event carries the time of the raw event that completed it,
//   and gestures come in time order;
// - steps never exceed what the events can mean: a rotary step needs `stepsPerDetent` counts (one raw
//   event of value v gives at most (|v| + stepsPerDetent - 1) / stepsPerDetent steps), a touch-ring frame
//   moves at most half a turn (at most 180° / degreesPerStep + 1 steps); no zero-step wheel event;
// - calibration findings are usable: counts not negative, a fitted ring with a finite centre and a
//   positive finite radius that a TouchRingDecoder accepts and decodes the same events with.

let relCodes: [UInt16] = [EvdevCode.relX, EvdevCode.relDial, EvdevCode.relWheel, EvdevCode.relY]
let absCodes: [UInt16] = [
    EvdevCode.absX, EvdevCode.absY, EvdevCode.absMTSlot, EvdevCode.absMTPositionX, EvdevCode.absMTPositionY,
    EvdevCode.absMTTrackingID,
]
let keyCodes: [UInt16] = [
    EvdevCode.btnTouch, EvdevCode.keyEnter, EvdevCode.keyMenu, EvdevCode.keyPlayPause, EvdevCode.keyNextSong,
    EvdevCode.keyPreviousSong,
]

func events(_ bytes: ArraySlice<UInt8>) -> [RawInputEvent] {
    var out: [RawInputEvent] = []
    var time: Int64 = 1_000_000
    var at = bytes.startIndex
    while at + 8 <= bytes.endIndex {
        let kind = bytes[at], code = bytes[at + 1]
        let value = Int32(bitPattern: UInt32(bytes[at + 2]) | UInt32(bytes[at + 3]) << 8 | UInt32(bytes[at + 4]) << 16
            | UInt32(bytes[at + 5]) << 24)
        time += (Int64(bytes[at + 6]) | Int64(bytes[at + 7]) << 8) * 100
        at += 8
        let (type, mapped): (UInt16, UInt16)
        switch kind & 7 {
        case 0: (type, mapped) = (EvdevCode.evSyn, code % 4 == 3 ? EvdevCode.synDropped : EvdevCode.synReport)
        case 1: (type, mapped) = (EvdevCode.evRel, relCodes[Int(code) % relCodes.count])
        case 2: (type, mapped) = (EvdevCode.evAbs, absCodes[Int(code) % absCodes.count])
        case 3: (type, mapped) = (EvdevCode.evKey, keyCodes[Int(code) % keyCodes.count])
        case 4: (type, mapped) = (EvdevCode.evAbs, absCodes[Int(code) % 2])  // single-touch position, most common
        // Raw: bits 3–4 the type (EV_SYN…EV_ABS), bits 5–7 the code's high bits (the seeds are written so).
        default: (type, mapped) = (UInt16(kind >> 3 & 3), UInt16(code) | UInt16(kind >> 5) << 8)
        }
        // Keys and BTN_TOUCH are 0, 1 or 2 from the kernel; a device can say anything else too.
        let v = type == EvdevCode.evKey && kind & 0x80 == 0 ? value & 3 : value
        out.append(RawInputEvent(time: Timestamp(microseconds: time), type: type, code: mapped, value: v))
    }
    return out
}

/// Feeds `events` to `decoder`, checking times and step bounds; returns the decoded events.
func decode(_ decoder: inout WheelDecoder, _ events: [RawInputEvent]) -> [InputEvent] {
    var all: [InputEvent] = []
    for event in events {
        let out = decoder.feed(event)
        var rotarySteps = 0
        for e in out {
            switch e {
            case .wheel(let steps, let at):
                require(at == event.time, "a wheel step at \(at), not at its event's \(event.time)")
                require(steps != 0, "a wheel event of 0 steps")
                rotarySteps += abs(steps)
            case .button(_, _, let at):
                require(at == event.time, "a button edge at \(at), not at its event's \(event.time)")
            }
        }
        // Which part made the steps: a REL event on the rotary's axis only the rotary; a SYN_REPORT only
        // the touch ring.
        if let rotary = decoder.rotary, event.type == EvdevCode.evRel, event.code == rotary.axis {
            let limit = (Int(event.value.magnitude) + rotary.stepsPerDetent - 1) / rotary.stepsPerDetent
            require(rotarySteps <= limit, "\(rotarySteps) steps from one count of \(event.value)")
        } else if let ring = decoder.touchRing, event.type == EvdevCode.evSyn {
            require(
                rotarySteps <= Int(180 / ring.degreesPerStep) + 1,
                "\(rotarySteps) steps in one frame at \(ring.degreesPerStep)° a step")
        } else {
            require(rotarySteps == 0, "\(rotarySteps) steps from \(event)")
        }
        all += out
    }
    return all
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let setup = bytes[0], stepByte = bytes[1]
    let raw = events(bytes[2...])

    // Calibration analysers first: a fitted ring feeds the decoder below when the setup asks for one.
    let count = RotaryCalibration.count(raw)
    if let count {
        require(count.forward >= 0 && count.backward >= 0 && count.bounces >= 0, "negative counts: \(count)")
        require(count.against >= 0 && count.reversals >= 0, "negative counts: \(count)")
    }
    if let detent = RotaryCalibration.detent(raw).finding {
        require([1, 2, 4].contains(detent.stepsPerDetent), "a detent of \(detent.stepsPerDetent) events")
        require(detent.clockwiseSign == 1 || detent.clockwiseSign == -1, "clockwise sign \(detent.clockwiseSign)")
        _ = RotaryDecoder(axis: detent.axis, stepsPerDetent: detent.stepsPerDetent)
    }
    let (touches, _) = TouchCalibration.touches(raw)
    var fitted: TouchRingDecoder.Ring?
    for points in touches.prefix(4) {
        if let ring = TouchCalibration.fit(points) { checkRing(ring) }
    }
    if let circle = TouchCalibration.circle(raw).finding {
        checkRing(circle.ring)
        require(circle.sweep.isFinite && circle.spread.isFinite, "sweep \(circle.sweep), spread \(circle.spread)")
        fitted = circle.ring
        if let confirmed = TouchCalibration.confirm(raw, first: circle).finding { checkRing(confirmed.ring) }
    }
    _ = WheelCalibration.press(raw)
    var walk = WheelCalibration(detentsPerTurn: setup & 0x40 == 0 ? nil : 20)
    for (i, event) in raw.enumerated() {
        walk.feed(event)
        // The setup byte's low bits pick how often a step is finished (as the person pausing would).
        if i % (4 + Int(setup & 0x0F)) == 3 {
            _ = walk.finishStep()
        }
    }
    _ = walk.finishStep()
    if let result = walk.result, case .touchRing(let ring, let degrees) = result.wheel {
        checkRing(ring)
        require(degrees > 0 && degrees.isFinite, "\(degrees)° a step")
    }

    // The wheel decoder as the setup configures it, then the gestures from its buttons.
    let stepsPerDetent = [1, 2, 4][Int(setup) % 3]
    let degreesPerStep = 1 + Double(stepByte % 90)
    let range = TouchRingDecoder.Range(min: 0, max: Int32(stepByte) * 16 + 1)
    var touchRing: TouchRingDecoder?
    if setup & 0x10 != 0 {
        touchRing = TouchRingDecoder(
            xRange: range, yRange: range, degreesPerStep: degreesPerStep, inverted: setup & 0x20 != 0,
            ring: setup & 0x80 != 0 ? fitted : nil)
    }
    var decoder = WheelDecoder(
        rotary: RotaryDecoder(
            axis: relCodes[Int(setup >> 2) % relCodes.count], stepsPerDetent: stepsPerDetent,
            inverted: setup & 0x08 != 0),
        touchRing: touchRing)
    let decoded = decode(&decoder, raw)

    var gestures = ButtonGestures()
    var last = Timestamp.zero
    for e in decoded {
        guard case .button(let button, let phase, let at) = e else { continue }
        require(at >= last, "a button edge at \(at) after one at \(last)")
        last = at
        _ = gestures.tick(at: at)
        _ = gestures.feed(button, phase, at: at)
        if let due = gestures.nextDue { require(due >= at, "a gesture due at \(due), before \(at)") }
    }
    return 0
}

func checkRing(_ ring: TouchRingDecoder.Ring) {
    require(ring.centerX.isFinite && ring.centerY.isFinite, "a ring centred at \(ring.centerX), \(ring.centerY)")
    require(ring.radius.isFinite && ring.radius > 0, "a ring of radius \(ring.radius)")
}
