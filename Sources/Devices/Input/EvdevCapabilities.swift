public import ClickWheelCore
public import Evdev

/// What an input device can be used for, read from its capabilities: a wheel axis, a touch ring,
/// buttons. Pure once built; `init(device:profile:)` queries the device (on the thread that owns it).
public struct EvdevCapabilities: Hashable, Sendable, CustomStringConvertible {
    /// The relative axis that turns the wheel (REL_DIAL, REL_X of an encoder, or a mouse's REL_WHEEL).
    public var wheelAxis: UInt16?
    /// The touchpad's X and Y ranges when it reports ABS_X/ABS_Y and BTN_TOUCH.
    public var touchRanges: (x: EvdevAbsInfo, y: EvdevAbsInfo)?
    /// Profile key codes (buttons and wheel keys) the device has.
    public var keys: [UInt16]

    public static func == (a: Self, b: Self) -> Bool {
        a.wheelAxis == b.wheelAxis && a.keys == b.keys && a.touchRanges?.x == b.touchRanges?.x
            && a.touchRanges?.y == b.touchRanges?.y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(wheelAxis)
        hasher.combine(keys)
        hasher.combine(touchRanges?.x)
        hasher.combine(touchRanges?.y)
    }

    /// Decides from answers to "has code of type" and the absolute ranges; `profile` names the keys.
    public init(
        has: (_ type: UInt16, _ code: UInt16) -> Bool, absInfo: (UInt16) -> EvdevAbsInfo?, profile: EvdevProfile
    ) {
        let rel = EvdevCode.evRel
        if has(rel, EvdevCode.relDial) {
            wheelAxis = EvdevCode.relDial
        } else if has(rel, EvdevCode.relX) && !has(rel, EvdevCode.relY) {
            wheelAxis = EvdevCode.relX
        } else if has(rel, EvdevCode.relWheel) {
            wheelAxis = EvdevCode.relWheel
        } else {
            wheelAxis = nil
        }
        if has(EvdevCode.evKey, EvdevCode.btnTouch), let x = absInfo(EvdevCode.absX), let y = absInfo(EvdevCode.absY),
            x.maximum > x.minimum, y.maximum > y.minimum
        {
            touchRanges = (x, y)
        } else {
            touchRanges = nil
        }
        keys = Set(profile.buttons.keys).union(profile.wheelKeys.keys).filter { has(EvdevCode.evKey, $0) }.sorted()
    }

    /// Reads the capabilities of an open device (`libevdev_has_event_code`, `libevdev_get_abs_info`).
    public init(device: EvdevDevice, profile: EvdevProfile) {
        self.init(
            has: { device.has(type: $0, code: $1) }, absInfo: { device.absInfo(code: $0) }, profile: profile)
    }

    /// True when the device is any use as click-wheel input.
    public var isUseful: Bool { wheelAxis != nil || touchRanges != nil || !keys.isEmpty }

    /// The decoder for this device under `profile`.
    public func decoder(profile: EvdevProfile) -> WheelDecoder {
        let rotary = wheelAxis.map {
            RotaryDecoder(axis: $0, stepsPerDetent: profile.stepsPerDetent, inverted: profile.inverted)
        }
        let ring = touchRanges.map {
            TouchRingDecoder(
                xRange: .init(min: $0.x.minimum, max: $0.x.maximum),
                yRange: .init(min: $0.y.minimum, max: $0.y.maximum),
                degreesPerStep: profile.degreesPerStep, deadZone: profile.deadZone, inverted: profile.inverted,
                ring: profile.touchRing)
        }
        return WheelDecoder(rotary: rotary, touchRing: ring, buttons: profile.buttons)
    }

    /// "wheel REL_X, touch ring 0…1023×0…1023, keys KEY_ENTER KEY_ESC", for the log line of an open.
    public var description: String {
        var parts: [String] = []
        if let axis = wheelAxis { parts.append("wheel \(EvdevNames.code(type: EvdevCode.evRel, code: axis))") }
        if let r = touchRanges {
            parts.append("touch ring \(r.x.minimum)…\(r.x.maximum)×\(r.y.minimum)…\(r.y.maximum)")
        }
        if !keys.isEmpty {
            parts.append("keys " + keys.map { EvdevNames.code(type: EvdevCode.evKey, code: $0) }.joined(separator: " "))
        }
        return parts.isEmpty ? "nothing usable" : parts.joined(separator: ", ")
    }
}
