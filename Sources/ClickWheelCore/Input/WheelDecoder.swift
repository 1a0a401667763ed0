/// The pure decoder for one input device: raw evdev-like events in, wheel steps and button edges out.
///
/// A device may carry a rotary encoder, a touch ring and keys at once; each part is optional.
/// Called by the device's reader (one thread per device); the value is not shared.
public struct WheelDecoder: Hashable, Sendable {
    public var rotary: RotaryDecoder?
    public var touchRing: TouchRingDecoder?
    /// Key codes (EV_KEY) that are click-wheel buttons.
    public var buttons: [UInt16: Button]

    public init(
        rotary: RotaryDecoder? = RotaryDecoder(), touchRing: TouchRingDecoder? = nil,
        buttons: [UInt16: Button] = EvdevCode.defaultButtons
    ) {
        self.rotary = rotary
        self.touchRing = touchRing
        self.buttons = buttons
    }

    /// Feeds one raw event and returns what it completes.
    public mutating func feed(_ event: RawInputEvent) -> [InputEvent] {
        var out: [InputEvent] = []
        if var r = rotary {
            let steps = r.feed(event)
            rotary = r
            if steps != 0 { out.append(.wheel(steps: steps, at: event.time)) }
        }
        if var t = touchRing {
            out += t.feed(event)
            touchRing = t
        }
        if event.type == EvdevCode.evKey, let button = buttons[event.code] {
            // Value 2 is the kernel's autorepeat: hold is recognised from timestamps instead.
            if event.value == 1 { out.append(.button(button, .down, at: event.time)) }
            if event.value == 0 { out.append(.button(button, .up, at: event.time)) }
        }
        return out
    }

    /// Feeds many events in order.
    public mutating func feed<S: Sequence>(_ events: S) -> [InputEvent] where S.Element == RawInputEvent {
        var out: [InputEvent] = []
        for event in events { out += feed(event) }
        return out
    }
}
