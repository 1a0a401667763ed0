/// One evdev-like input event (`struct input_event` without the C): time, type, code, value.
///
/// The decoder is fed these by the evdev reader thread, by evemu traces in tests, and by the
/// keyboard front end, so all inputs share one decoding path.
public struct RawInputEvent: Hashable, Sendable {
    public var time: Timestamp
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Timestamp, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The evdev constants the decoder needs (linux/input-event-codes.h), without importing C.
public enum EvdevCode {
    public static let evSyn: UInt16 = 0x00
    public static let evKey: UInt16 = 0x01
    public static let evRel: UInt16 = 0x02
    public static let evAbs: UInt16 = 0x03

    public static let synReport: UInt16 = 0
    public static let synDropped: UInt16 = 3

    public static let relX: UInt16 = 0x00
    public static let relY: UInt16 = 0x01
    public static let relDial: UInt16 = 0x07
    public static let relWheel: UInt16 = 0x08

    public static let absX: UInt16 = 0x00
    public static let absY: UInt16 = 0x01
    public static let absMTSlot: UInt16 = 0x2F
    public static let absMTPositionX: UInt16 = 0x35
    public static let absMTPositionY: UInt16 = 0x36
    public static let absMTTrackingID: UInt16 = 0x39

    public static let btnTouch: UInt16 = 0x14A
    public static let keyEnter: UInt16 = 28
    public static let keyMenu: UInt16 = 139
    public static let keyPlayPause: UInt16 = 164
    public static let keyNextSong: UInt16 = 163
    public static let keyPreviousSong: UInt16 = 165

    /// The default key codes of the five buttons (the gpio-key overlay's `keycode=` values).
    public static let defaultButtons: [UInt16: Button] = [
        keyEnter: .select, keyMenu: .menu, keyPlayPause: .playPause, keyNextSong: .next,
        keyPreviousSong: .previous,
    ]
}

/// What the decoder makes of raw events: wheel steps and button edges, with their times.
public enum InputEvent: Hashable, Sendable {
    /// Signed wheel steps (positive = clockwise = down the list).
    case wheel(steps: Int, at: Timestamp)
    case button(Button, ButtonPhase, at: Timestamp)
}
